/** Escapes text for a double-quoted HTML attribute value. */
export function escapeAttribute(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll('"', "&quot;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;");
}

/** How a page of ours begins, up to its own head elements: UTF-8, the viewport, no Referer sent. */
export const PAGE_START = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">`;

/** Where a channel's snippet wants the launch token (docs/widget.md#embedding). */
export const LAUNCH_TOKEN_PLACEHOLDER = "{{LAUNCH_TOKEN}}";

/**
 * A widget channel's `snippet` (docs/api/manage.md#agents-and-channels, docs/widget.md#embedding):
 * the embed tag with {@link LAUNCH_TOKEN_PLACEHOLDER} under a comment on where the token comes from.
 */
export function widgetSnippetTemplate(baseUrl: string, flowId: string, channelId: string): string {
  return `<!-- Replace ${LAUNCH_TOKEN_PLACEHOLDER} with the token your server gets for the signed-in person from POST /v1/widget/launches (its embedHtml is this tag with the token in place). -->
${widgetScriptTag(baseUrl, flowId, channelId, LAUNCH_TOKEN_PLACEHOLDER)}`;
}

/** The widget script tag: flow, channel, maybe a launch token (docs/api/manage.md, docs/api/launch.md). */
export function widgetScriptTag(
  baseUrl: string,
  flowId: string,
  channelId: string,
  launchToken?: string,
): string {
  const launch = launchToken === undefined ? "" : ` data-launch="${escapeAttribute(launchToken)}"`;
  return `<script src="${escapeAttribute(`${baseUrl}/widget.js`)}" data-flow-id="${escapeAttribute(flowId)}" data-channel-id="${escapeAttribute(channelId)}"${launch} async></script>`;
}
