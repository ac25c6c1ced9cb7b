/**
 * Performs the actions of the nodes that reach the person (docs/workflows.md): create_link and
 * end_conversation through the link ledger by the launch API's rules, send_message and ask_person
 * into the link's Conversation (the ledger giving a link not yet opened its session). Each is
 * idempotent by execution and node (ids derived from both), so an action repeated after a restart
 * does nothing twice.
 */
import type { Refusal } from "../../launch/ledger/contract";
import { randomBase64Url, sha256Hex } from "../../platform/crypto";
import type { AppBindings } from "../../platform/env";
import type { JsonValue } from "../../platform/json";
import { MESSAGE_CHARS } from "../nodes/person";
import type { ActionResult, ExecutionState, LiveStep, NodeAction } from "../nodes/types";
import type { LiveExecution } from "./execution-row";
import { shardOfId } from "./shards";

/** Performs a person node's action for an execution (the executor's `act`). */
export type Act = (execution: LiveExecution, step: LiveStep) => Promise<ActionResult>;

type Env = Pick<AppBindings, "LINK_LEDGER" | "CONVERSATION">;

/** Whose action it is: the workflow's workspace, the execution and node. */
export type Actor = {
  workspaceId: string;
  workflowId: string;
  executionId: string;
  nodeKey: string;
};

/** `prefix` + 24 hex of SHA-256 of `executionId/nodeKey`: the same for every repeat of the action. */
export async function actionId(
  prefix: "lnk" | "msg" | "qst",
  actor: Pick<Actor, "executionId" | "nodeKey">,
): Promise<string> {
  const hash = await sha256Hex(`${actor.executionId}/${actor.nodeKey}`);
  return `${prefix}_${hash.slice(0, 24)}`;
}

/**
 * Gives a create_link its token before anything is saved (so before the link exists): kept in
 * the sealed state, the same token is used again when the action is repeated after a restart.
 */
export function prepareAction(state: ExecutionState, nodeKey: string, action: NodeAction): void {
  if (action.type !== "create_link" || state.tokens?.[nodeKey]) return;
  state.tokens = { ...state.tokens, [nodeKey]: randomBase64Url(32) };
}

// The ledger and the Conversation by their bindings: the workflows folder does not import the
// launch and conversations folders at run time (they start workflows: a folder cycle).
const ledger = (env: Env, workspaceId: string) =>
  env.LINK_LEDGER.get(env.LINK_LEDGER.idFromName(workspaceId));

const refused = ({ message, code, details }: Refusal): ActionResult => ({
  ok: false,
  error: message,
  code: code as Extract<ActionResult, { ok: false }>["code"],
  ...(details?.length ? { details: details as JsonValue[] } : {}),
});

const invalid = (message: string, details: JsonValue[]): ActionResult => ({
  ok: false,
  error: message,
  code: "invalid_request",
  details,
});

/** Performs a person node's action; a refusal is a result, a fault (a binding down) throws. */
export async function performAction(
  env: Env,
  actor: Actor,
  action: NodeAction,
  state: ExecutionState,
  now = Date.now(),
): Promise<ActionResult> {
  switch (action.type) {
    case "create_link":
      return createLink(env, actor, action.link, state.tokens?.[actor.nodeKey], now);
    case "send_message":
    case "ask_person":
      return post(env, actor, action, now);
    case "end_conversation":
      return endConversation(env, actor, action.linkId, action.reason, now);
    case "close_question":
      return closeQuestion(env, actor, action.sessionId);
  }
}

/**
 * The ask_person's own timeout passed: its question closes in the chat it was posted to (buttons
 * gone, a later answer refused). Idempotent; a Conversation erased meanwhile has nothing to close.
 */
async function closeQuestion(env: Env, actor: Actor, sessionId: string): Promise<ActionResult> {
  const chat = env.CONVERSATION.get(env.CONVERSATION.idFromName(sessionId));
  const closed = await chat.closeQuestion(await actionId("qst", actor));
  return { ok: true, output: { closed } };
}

async function createLink(
  env: Env,
  actor: Actor,
  settings: Record<string, JsonValue>,
  token: string | undefined,
  now: number,
): Promise<ActionResult> {
  if (!token) throw new Error("The link's token was not prepared.");
  const { workspaceId, workflowId } = actor;
  const request = { settings, linkId: await actionId("lnk", actor), token, workflowId, now };
  const result = await ledger(env, workspaceId).createWorkflowLink(workspaceId, request);
  return result.ok ? { ok: true, output: result.value } : refused(result.refusal);
}

/** send_message and ask_person: the message (and question) into the link's conversation. */
async function post(
  env: Env,
  actor: Actor,
  action: Extract<NodeAction, { type: "send_message" | "ask_person" }>,
  now: number,
): Promise<ActionResult> {
  const text = (action.type === "send_message" ? action.text : action.question).trim();
  const field = action.type === "send_message" ? "text" : "question";
  if (text.length < MESSAGE_CHARS.min || text.length > MESSAGE_CHARS.max) {
    const message = `${field} has ${text.length} characters once resolved: ${MESSAGE_CHARS.min} to ${MESSAGE_CHARS.max} are allowed.`;
    return invalid(message, [{ field, code: "out_of_range", message }]);
  }
  const session = await ledger(env, actor.workspaceId).linkSession(
    actor.workspaceId,
    action.linkId,
    now,
  );
  if (!session.ok) return refused(session.refusal);
  const { status, sessionId, expiresAt } = session.value;
  if (sessionId === null || status === "revoked" || status === "expired" || status === "ended") {
    const reason = status === "revoked" || status === "expired" ? status : "ended";
    return unavailable(reason);
  }
  const question =
    action.type === "ask_person"
      ? {
          id: await actionId("qst", actor),
          options: action.options,
          allowText: action.allowText,
          asker: {
            workflowId: actor.workflowId,
            shard: shardOfId(actor.executionId),
            executionId: actor.executionId,
            nodeKey: actor.nodeKey,
          },
        }
      : undefined;
  const message = { id: await actionId("msg", actor), text, ...(question ? { question } : {}) };
  const link = { linkId: action.linkId, workspaceId: actor.workspaceId, expiresAt };
  const chat = env.CONVERSATION.get(env.CONVERSATION.idFromName(sessionId));
  const posted = await chat.postWorkflowMessage(message, link, now);
  if (!posted.ok) {
    return posted.reason === "invalid" ? invalid(posted.message, []) : unavailable(posted.reason);
  }
  const output = { messageId: posted.messageId, delivered: posted.delivered };
  // ask_person's session is kept in the state (not its output) for closing on timeout.
  return {
    ok: true,
    output: question ? { ...output, questionId: question.id, sessionId } : output,
  };
}

function unavailable(reason: "ended" | "revoked" | "expired"): ActionResult {
  return {
    ok: false,
    error: `The link's conversation is ${reason}: nothing can be written to it.`,
    code: "conversation_unavailable",
    details: [{ reason }],
  };
}

async function endConversation(
  env: Env,
  actor: Actor,
  linkId: string,
  reason: string | null,
  now: number,
): Promise<ActionResult> {
  const { workspaceId } = actor;
  const result = await ledger(env, workspaceId).endWorkflowLink(workspaceId, linkId, now);
  if (!result.ok) return refused(result.refusal);
  return {
    ok: true,
    output: { linkId, ended: true, reason, endedAt: new Date(now).toISOString() },
  };
}
/** The runner's `Act` (steps.ts): the action for the execution's workflow and workspace. */
export function personActs(
  env: Env,
  workspaceOf: (workflowId: string) => Promise<string | undefined>,
): Act {
  return async (execution, step) => {
    const workspaceId = await workspaceOf(execution.workflowId);
    if (!workspaceId) return { ok: false, error: "The workflow no longer exists." };
    const { workflowId, id: executionId, state } = execution;
    const actor = { workspaceId, workflowId, executionId, nodeKey: step.nodeKey };
    return performAction(env, actor, step.action, state);
  };
}
