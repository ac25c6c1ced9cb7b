/**
 * The respond node in the pure engine (docs/webhooks.md#respond-node): its reply rendered over the
 * earlier outputs and the execution id but never secrets, the first one reached in a responseNode
 * execution marked as the answer, and the execution going on past it.
 */
import { describe, expect, it } from "vitest";
import { advance, completeWait, startExecution } from "../../../src/workflows/engine/engine";
import { answeredReply } from "../../../src/workflows/engine/respond";
import { define } from "../../helpers/definitions";
import { roundTrip, T0, webhookCall } from "../../helpers/engine-flows";

const secrets = { TOKEN: "tok_secret" };

/** webhook (responseMode as given) → set → respond → wait 5 s → respond again. */
const flow = (responseMode: string) =>
  define(
    [
      { type: "webhook", responseMode },
      { key: "order", type: "set", fields: { id: "{{webhook_1.body.id}}", token: "x" } },
      {
        key: "reply",
        type: "respond",
        status: 201,
        headers: { "x-order": "{{order.id}}", "x-run": "{{$execution.id}}" },
        body: { id: "{{order.id}}", run: "{{$execution.id}}", secret: "{{secrets.TOKEN}}" },
      },
      { key: "pause", type: "wait", seconds: 5 },
      { key: "again", type: "respond", contentType: "text", body: "late {{order.id}}" },
    ],
    [
      { from: "webhook_1", to: "order" },
      { from: "order", to: "reply" },
      { from: "reply", to: "pause" },
      { from: "pause", to: "again" },
    ],
  );

describe("respond node", () => {
  it("renders its reply, marks the first one reached as the answer and goes on", () => {
    const definition = flow("responseNode");
    const state = startExecution(definition, "webhook_1", webhookCall({}, { id: 7 }), T0, "exe_1");
    expect(advance(definition, state, secrets, T0)).toEqual({
      kind: "wait",
      nodeKey: "pause",
      until: T0 + 5_000,
    });
    const reply = {
      status: 201,
      headers: { "x-order": "7", "x-run": "exe_1" },
      contentType: "json",
      body: { id: 7, run: "exe_1", secret: "" },
    };
    expect(state.runs.find((run) => run.key === "reply")).toEqual({
      key: "reply",
      type: "respond",
      status: "succeeded",
      output: reply,
      answered: true,
      startedAt: T0,
      finishedAt: T0,
    });
    // The runner reads the answer back from stored runs after a restart.
    const stored = roundTrip(state);
    expect(answeredReply(stored.runs)).toEqual(reply);

    expect(completeWait(definition, stored, T0 + 5_000)).toBe(true);
    expect(advance(definition, stored, secrets, T0 + 5_000)).toEqual({
      kind: "finished",
      status: "succeeded",
    });
    const again = stored.runs.find((run) => run.key === "again");
    expect(again?.output).toEqual({
      status: 200,
      headers: {},
      contentType: "text",
      body: "late 7",
    });
    expect(again?.answered).toBeUndefined();
    expect(answeredReply(stored.runs)).toEqual(reply);
  });

  it("answers nothing in an execution a lastNode webhook started", () => {
    const definition = define(
      [
        { type: "webhook", responseMode: "responseNode" },
        { key: "other", type: "webhook", responseMode: "lastNode" },
        { key: "reply", type: "respond", body: "hi" },
      ],
      [
        { from: "webhook_1", to: "reply" },
        { from: "other", to: "reply" },
      ],
    );
    const state = startExecution(definition, "other", webhookCall({}), T0, "exe_2");
    advance(definition, state, {}, T0);
    expect(state.runs.at(-1)).toMatchObject({ key: "reply", status: "succeeded" });
    expect(state.runs.at(-1)?.answered).toBeUndefined();
    expect(answeredReply(state.runs)).toBeUndefined();
  });

  it("encodes text, html and xml bodies as text and leaves out an absent body", () => {
    const definition = define(
      [
        { type: "webhook", responseMode: "responseNode" },
        { key: "html", type: "respond", contentType: "html", body: "<p>{{webhook_1.body.n}}</p>" },
        { key: "xml", type: "respond", contentType: "xml", body: { n: "{{webhook_1.body.n}}" } },
        { key: "empty", type: "respond", status: 202 },
        {
          key: "moved",
          type: "respond",
          status: 302,
          headers: { location: "/x/{{webhook_1.body.n}}" },
        },
      ],
      [
        { from: "webhook_1", to: "html" },
        { from: "html", to: "xml" },
        { from: "xml", to: "empty" },
        { from: "empty", to: "moved" },
      ],
    );
    const state = startExecution(definition, "webhook_1", webhookCall({}, { n: 3 }), T0);
    advance(definition, state, {}, T0);
    const outputs = Object.fromEntries(state.runs.map((run) => [run.key, run.output]));
    expect(outputs.html).toMatchObject({ contentType: "html", body: "<p>3</p>" });
    expect(outputs.xml).toMatchObject({ contentType: "xml", body: '{"n":3}' });
    expect(outputs.empty).toEqual({ status: 202, headers: {}, contentType: "json" });
    expect(outputs.moved).toEqual({
      status: 302,
      headers: { location: "/x/3" },
      contentType: "json",
    });
    // Without an execution id (a state stored before it was kept) the template reads as empty.
    expect(state.executionId).toBeUndefined();
  });
});
