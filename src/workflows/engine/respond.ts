/** The respond node at run time (docs/webhooks.md#respond-node): its reply, and which one answers. */
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
/** Reply header templates as text: control characters as spaces (no splitting), cut at MAX_HEADER_VALUE. */
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
 * The respond node's reply and output, `{status, headers, contentType, body?}`, resolved over the
 * outputs so far and `{{$execution.id}}` (secrets read as empty); a non-json body as text.
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

/** Whether a respond node run now answers: a `responseNode` webhook's first respond node. */
export function answersCall(definition: WorkflowDefinition, state: ExecutionState): boolean {
  const trigger = definition.nodes.find((node) => node.key === state.triggerKey);
  if (trigger?.type !== "webhook" || trigger.responseMode !== "responseNode") return false;
  return !state.runs.some((run) => run.answered);
}

/** The reply that answered the call: the output of the run marked `answered`, or undefined. */
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
