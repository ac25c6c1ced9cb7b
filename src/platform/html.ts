/** Escapes text for a double-quoted HTML attribute value. */
export function escapeAttribute(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll('"', "&quot;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;");
}

/**
 * The widget script tag (docs/api/manage.md, docs/api/launch.md): `{baseUrl}/widget.js` with the flow and channel ids,
 * and the launch token when the tag opens one link's conversation.
 */
export function widgetScriptTag(
  baseUrl: string,
  flowId: string,
  channelId: string,
  launchToken?: string,
): string {
  const launch = launchToken === undefined ? "" : ` data-launch="${escapeAttribute(launchToken)}"`;
  return `<script src="${escapeAttribute(`${baseUrl}/widget.js`)}" data-flow-id="${escapeAttribute(flowId)}" data-channel-id="${escapeAttribute(channelId)}"${launch} async></script>`;
}
