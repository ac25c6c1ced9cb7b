/**
 * The engine's side of the person nodes (docs/workflows.md): each resolves its templates into an
 * `act` step, repeated after a restart until its result comes; ask_person then waits and goes on
 * by `answered` or `timeout`; a refusal fails the node with the API's code and details.
 */
import { describe, expect, it } from "vitest";
import { advance, completeWait, startExecution } from "../../../src/workflows/engine/engine";
import {
  answerQuestion,
  completeAction,
  stillAsking,
  timeOutQuestion,
} from "../../../src/workflows/engine/person";
import { parseDefinition } from "../../../src/workflows/nodes/validate";
import { define } from "../../helpers/definitions";
import { roundTrip, T0, webhookCall } from "../../helpers/engine-flows";

const askFlow = () =>
  define(
    [
      { type: "webhook" },
      {
        key: "link",
        type: "create_link",
        flowId: "{{webhook_1.body.agent}}",
        channelId: "ch_1",
        parameters: { invoice: "{{webhook_1.body.invoice}}" },
        participant: { externalId: "{{webhook_1.body.customer}}" },
      },
      {
        key: "ask",
        type: "ask_person",
        linkId: "{{link.id}}",
        question: "Pay invoice {{webhook_1.body.invoice}} now?",
        options: [
          { label: "Yes", value: "yes" },
          { label: "No", value: "no" },
        ],
        timeoutSeconds: 60,
      },
      {
        key: "thanks",
        type: "send_message",
        linkId: "{{link.id}}",
        text: "You said {{ask.answer}}",
      },
      { key: "bye", type: "end_conversation", linkId: "{{link.id}}", reason: "no answer" },
    ],
    [
      { from: "webhook_1", to: "link" },
      { from: "link", to: "ask" },
      { from: "ask", to: "thanks", branch: "answered" },
      { from: "ask", to: "bye", branch: "timeout" },
    ],
  );

const BODY = { agent: "agt_1", invoice: "in_7", customer: "cus_9" };
const LINK = { id: "lnk_1", status: "pending", url: "u", embedHtml: "e", expiresAt: "x" };

/** An execution of askFlow at its ask_person, waiting since T0 + 1 (`asked`: the ask's output). */
function waitingAtAsk(asked: Record<string, string> = { messageId: "m" }) {
  const definition = askFlow();
  const state = startExecution(definition, "webhook_1", webhookCall({}, BODY), T0, "exe_1");
  advance(definition, state, {}, T0);
  completeAction(definition, state, { ok: true, output: LINK }, T0);
  expect(advance(definition, state, {}, T0)).toMatchObject({ kind: "act", nodeKey: "ask" });
  completeAction(definition, state, { ok: true, output: asked }, T0 + 1);
  return { definition, state };
}

describe("person nodes in the engine", () => {
  it("resolves create_link's templates into its action, again after a restart", () => {
    const definition = askFlow();
    const state = startExecution(definition, "webhook_1", webhookCall({}, BODY), T0, "exe_1");
    const step = advance(definition, state, {}, T0);
    expect(step).toEqual({
      kind: "act",
      nodeKey: "link",
      action: {
        type: "create_link",
        link: {
          flowId: "agt_1",
          channelId: "ch_1",
          parameters: { invoice: "in_7" },
          participant: { externalId: "cus_9" },
        },
      },
    });
    // A restart before the result: the same action again, the node still running once.
    const restarted = roundTrip(state);
    expect(advance(definition, restarted, {}, T0 + 5)).toEqual(step);
    expect(restarted.runs.filter((run) => run.key === "link")).toHaveLength(1);
  });

  it("asks, waits timeoutSeconds through a restart, and goes on by answered", () => {
    const { definition, state } = waitingAtAsk();
    expect(advance(definition, state, {}, T0 + 2)).toEqual({
      kind: "wait",
      nodeKey: "ask",
      until: T0 + 1 + 60_000,
    });
    const restarted = roundTrip(state);
    expect(advance(definition, restarted, {}, T0 + 3)).toMatchObject({ kind: "wait" });
    const answer = { nodeKey: "ask", answer: "yes", answeredAt: T0 + 10 };
    expect(answerQuestion(definition, restarted, answer, T0 + 11)).toBe(true);
    // A second answer finds nothing waiting.
    expect(answerQuestion(definition, restarted, { ...answer, answer: "no" }, T0 + 12)).toBe(false);
    expect(restarted.outputs.ask).toEqual({
      answer: "yes",
      answeredAt: new Date(T0 + 10).toISOString(),
    });
    expect(advance(definition, restarted, {}, T0 + 13)).toEqual({
      kind: "act",
      nodeKey: "thanks",
      action: { type: "send_message", linkId: "lnk_1", text: "You said yes" },
    });
    expect(restarted.active).not.toContain("bye");
  });

  it("is still asking until its question is saved waiting; not once closing or past", () => {
    const definition = askFlow();
    const state = startExecution(definition, "webhook_1", webhookCall({}, BODY), T0, "exe_1");
    advance(definition, state, {}, T0);
    expect(stillAsking(state, "ask")).toBe(false); // not reached yet
    completeAction(definition, state, { ok: true, output: LINK }, T0);
    advance(definition, state, {}, T0);
    // Asked, its result not come (a restart between): an answer must be sent again.
    expect(stillAsking(state, "ask")).toBe(true);
    expect(stillAsking(state, "link")).toBe(false);
    completeAction(definition, state, { ok: true, output: { sessionId: "ses_1" } }, T0 + 1);
    expect(stillAsking(state, "ask")).toBe(false);
    expect(completeWait(definition, state, T0 + 60_001)).toBe(true);
    expect(state.closing).toBe("ask");
    expect(stillAsking(state, "ask")).toBe(false); // the timeout decided it
  });

  it("goes on by timeout at the timeout, not before", () => {
    const { definition, state } = waitingAtAsk();
    expect(completeWait(definition, state, T0 + 60_000)).toBe(false);
    expect(completeWait(definition, state, T0 + 60_001)).toBe(true);
    expect(state.outputs.ask).toEqual({ timedOut: true });
    expect(advance(definition, state, {}, T0 + 60_002)).toEqual({
      kind: "act",
      nodeKey: "bye",
      action: { type: "end_conversation", linkId: "lnk_1", reason: "no answer" },
    });
    expect(state.active).not.toContain("thanks");
  });

  it("closes its question in the session it asked in once timed out, then goes on by timeout", () => {
    const { definition, state } = waitingAtAsk({ messageId: "m", sessionId: "ses_1" });
    expect(state.asked).toEqual({ ask: "ses_1" });
    expect(completeWait(definition, state, T0 + 60_001)).toBe(true);
    const close = {
      kind: "act",
      nodeKey: "ask",
      action: { type: "close_question", sessionId: "ses_1" },
    };
    expect(advance(definition, state, {}, T0 + 60_002)).toEqual(close);
    // After a restart the closing is taken again; an answer or the link's end meanwhile is ignored.
    const restarted = roundTrip(state);
    expect(advance(definition, restarted, {}, T0 + 60_003)).toEqual(close);
    const answer = { nodeKey: "ask", answer: "yes", answeredAt: T0 + 60_003 };
    expect(answerQuestion(definition, restarted, answer, T0 + 60_004)).toBe(false);
    expect(timeOutQuestion(definition, restarted, "ask", T0 + 60_004)).toBe(false);
    // Best effort: a closing that failed (the chat gone) goes on all the same.
    completeAction(definition, restarted, { ok: false, error: "gone" }, T0 + 60_005);
    expect(restarted.outputs.ask).toEqual({ timedOut: true });
    expect(restarted.runs.find((run) => run.key === "ask")?.status).toBe("succeeded");
    expect(restarted.asked).toBeUndefined();
    expect(restarted.closing).toBeUndefined();
    expect(advance(definition, restarted, {}, T0 + 60_006)).toMatchObject({ nodeKey: "bye" });
  });

  it("goes on by timeout when the link ends (closeQuestion); an answer after it is ignored", () => {
    const { definition, state } = waitingAtAsk();
    expect(timeOutQuestion(definition, state, "ask", T0 + 5)).toBe(true);
    expect(state.waitUntil).toBeNull();
    expect(state.outputs.ask).toEqual({ timedOut: true });
    const late = { nodeKey: "ask", answer: "yes", answeredAt: T0 + 6 };
    expect(answerQuestion(definition, state, late, T0 + 6)).toBe(false);
    expect(timeOutQuestion(definition, state, "ask", T0 + 7)).toBe(false);
  });

  it("fails the node with the API's code and details when the action is refused", () => {
    const definition = askFlow();
    const state = startExecution(definition, "webhook_1", webhookCall({}, BODY), T0, "exe_1");
    advance(definition, state, {}, T0);
    const details = [{ code: "missing_required", name: "plan" }];
    const refusal = { ok: false, error: "Refused.", code: "invalid_parameters", details } as const;
    completeAction(definition, state, refusal, T0 + 1);
    expect(state.status).toBe("failed");
    expect(state.runs.at(-1)).toMatchObject({
      key: "link",
      status: "failed",
      error: "Refused.",
      errorCode: "invalid_parameters",
      errorDetails: details,
    });
    expect(advance(definition, state, {}, T0 + 2)).toEqual({ kind: "finished", status: "failed" });
  });
});

describe("ask_person's branches in a definition", () => {
  const nodes = [
    { type: "webhook" },
    { key: "ask", type: "ask_person", linkId: "l", question: "?", timeoutSeconds: 60 },
    { key: "next", type: "set", fields: {} },
  ];
  const problems = (connection: object) => {
    const result = parseDefinition({
      nodes,
      connections: [{ from: "webhook_1", to: "ask" }, connection],
    });
    return result.ok ? [] : result.problems.map(({ field, code }) => `${field} ${code}`);
  };

  it("needs answered or timeout on connections leaving it, and refuses a condition's", () => {
    expect(problems({ from: "ask", to: "next", branch: "answered" })).toEqual([]);
    expect(problems({ from: "ask", to: "next", branch: "timeout" })).toEqual([]);
    expect(problems({ from: "ask", to: "next" })).toEqual(["connections[1].branch missing_branch"]);
    expect(problems({ from: "ask", to: "next", branch: "true" })).toEqual([
      "connections[1].branch unexpected_branch",
    ]);
    expect(problems({ from: "webhook_1", to: "next", branch: "answered" })).toEqual([
      "connections[1].branch unexpected_branch",
    ]);
  });
});
