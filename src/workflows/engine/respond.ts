/**
 * The respond node at run time (docs/webhooks.md#respond-node): its reply rendered over the earlier
 * nodes' outputs and `{{$execution.id}}`, never over secrets, and which respond node answers the
 * call: the first one reached in an execution started by a `responseNode` webhook.
 */
import type { JsonObject, JsonValue } from "../../platform/json";
import {
  EXECUTION_SCOPE,
  MAX_HEADER_VALUE,
  REPLY_CONTENT_TYPES,
  replyHasNoBody,
  type WebhookReply,
} from "../nodes/reply";
import type { ExecutionState, NodeRun, RespondNode, WorkflowDefinition } from "../nodes/types";
import { isPlainObject, resolveValue, type TemplateScope, valueAsText } from "./template";

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;
/**
 * Resolves reply header values (templates) as text. Control characters become spaces, so a value
 * taken from the call cannot split the answer's headers, and values are cut at MAX_HEADER_VALUE.
 */
export function resolveReplyHeaders(
  headers: Record<string, string>,
  scope: TemplateScope,
): Record<string, string> {
  const resolved: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    resolved[name] = valueAsText(resolveValue(value, scope))
      .replace(CONTROL_CHARACTERS, " ")
      .slice(0, MAX_HEADER_VALUE);
  }
  return resolved;
}

/**
 * The respond node's reply, which is also its output: `{status, headers, contentType, body?}` with
 * every template resolved over the outputs so far and `{{$execution.id}}` (secrets read as empty).
 * A json body keeps its resolved value; a text, html or xml body becomes the text it reads as
 * (`valueAsText`); no body setting, or a status without a body, gives no `body`.
 */
export function renderRespond(node: RespondNode, state: ExecutionState): JsonObject {
  const scope: TemplateScope = {
    outputs: { ...state.outputs, [EXECUTION_SCOPE]: { id: state.executionId ?? "" } },
    secrets: {},
  };
  const reply: JsonObject = {
    status: node.status,
    headers: resolveReplyHeaders(node.headers, scope),
    contentType: node.contentType,
  };
  if (node.body !== undefined && !replyHasNoBody(node.status)) {
    const body = resolveValue(node.body, scope);
    reply.body = node.contentType === "json" ? body : valueAsText(body);
  }
  return reply;
}

/**
 * Whether a respond node run now answers the call: the execution was started by a webhook whose
 * responseMode is `responseNode` and no respond node has answered yet (later ones only record).
 */
export function answersCall(definition: WorkflowDefinition, state: ExecutionState): boolean {
  const trigger = definition.nodes.find((node) => node.key === state.triggerKey);
  if (trigger?.type !== "webhook" || trigger.responseMode !== "responseNode") return false;
  return !state.runs.some((run) => run.answered);
}

/**
 * The reply that answered the call, read from the execution's node runs (live or as recorded):
 * the output of the succeeded run marked `answered`, or undefined when none is.
 */
export function answeredReply(runs: NodeRun[]): WebhookReply | undefined {
  const run = runs.find((candidate) => candidate.answered && candidate.status === "succeeded");
  return run ? asReply(run.output) : undefined;
}

/** A respond node's output read back as a WebhookReply; undefined for anything else. */
function asReply(output: JsonValue | undefined): WebhookReply | undefined {
  if (!isPlainObject<JsonValue>(output)) return undefined;
  const { status, headers, contentType, body } = output;
  const type = REPLY_CONTENT_TYPES.find((known) => known === contentType);
  if (typeof status !== "number" || !isPlainObject<JsonValue>(headers) || !type) return undefined;
  const strings = Object.entries(headers).filter(([, value]) => typeof value === "string");
  const reply: WebhookReply = {
    status,
    headers: Object.fromEntries(strings) as Record<string, string>,
    contentType: type,
  };
  return body === undefined ? reply : { ...reply, body };
}
