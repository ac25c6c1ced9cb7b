/**
 * The key of a call under per-key flow control (docs/webhooks.md#flow-control): a template over the
 * trigger's output, rendered as text; a template that renders nothing counts under the key `""`.
 */
import type { JsonValue } from "../../platform/json";
import { resolveValue, valueAsText } from "../engine/template";

/** The longest key kept (characters): longer ones are cut, so a key cannot grow a row unbounded. */
export const MAX_FLOW_KEY_LENGTH = 500;

/**
 * Renders a flow-control `key` template for one call.
 * @param template the setting, such as `{{webhook_1.body.customer}}`; undefined: no key (`""`)
 * @param nodeKey the trigger node's key, whose output the template reads
 * @param output the trigger's output for this call
 * @returns the key as text, at most MAX_FLOW_KEY_LENGTH characters; `""` when it renders empty
 */
export function flowKey(template: string | undefined, nodeKey: string, output: unknown): string {
  if (template === undefined) return "";
  const scope = { outputs: { [nodeKey]: output as JsonValue }, secrets: {} };
  return valueAsText(resolveValue(template, scope)).slice(0, MAX_FLOW_KEY_LENGTH);
}
