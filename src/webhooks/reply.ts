/**
 * An immediate webhook node's own reply (docs/webhooks.md#replies): its status, headers and body,
 * templates resolved over the call (`{{<node key>.…}}`) and the execution (`{{$execution.id}}`);
 * never over secrets.
 */
import type { JsonValue } from "../platform/json";
import { resolveValue, valueAsText } from "../workflow/template";
import type { WebhookNode, WebhookOutput } from "../workflow/types";
import { EXECUTION_SCOPE, MAX_HEADER_VALUE } from "../workflow/validate-reply";

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/** What the Worker answers an accepted call with, when the node says. */
export type Reply = { status: number; headers: Record<string, string>; body: JsonValue };

/**
 * The node's reply for this call, or undefined when it has none (the default `{success,
 * executionId}` then). Header values lose control characters, so a value taken from the call
 * cannot split the answer's headers.
 */
export function renderReply(
  node: WebhookNode,
  output: WebhookOutput,
  executionId: string,
): Reply | undefined {
  const { responseStatus, responseHeaders, responseBody } = node;
  if (responseStatus === undefined && responseHeaders === undefined && responseBody === undefined) {
    return undefined;
  }
  const scope = {
    outputs: { [node.key]: output as unknown as JsonValue, [EXECUTION_SCOPE]: { id: executionId } },
    secrets: {},
  };
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(responseHeaders ?? {})) {
    headers[name] = valueAsText(resolveValue(value, scope))
      .replace(CONTROL_CHARACTERS, " ")
      .slice(0, MAX_HEADER_VALUE);
  }
  const body =
    responseBody === undefined ? { success: true, executionId } : resolveValue(responseBody, scope);
  return { status: responseStatus ?? 200, headers, body };
}
