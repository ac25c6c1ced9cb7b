import { describe, expect, it } from "vitest";
import { advance, finalOutput, startExecution } from "../../../src/workflows/engine/engine";
import { define } from "../../helpers/definitions";
import { roundTrip, T0, webhookCall } from "../../helpers/engine-flows";

// Spec 5: the caller's shared secret is compared to a workspace secret.
const sharedSecret = define(
  [
    { type: "webhook", responseMode: "lastNode" },
    {
      key: "check",
      type: "condition",
      left: "{{webhook_1.headers.x-webhook-secret}}",
      operator: "equals",
      right: "{{secrets.WEBHOOK_SECRET}}",
    },
    { key: "ok", type: "set", fields: { ok: true } },
    { key: "denied", type: "set", fields: { ok: false } },
  ],
  [
    { from: "webhook_1", to: "check" },
    { from: "check", to: "ok", branch: "true" },
    { from: "check", to: "denied", branch: "false" },
  ],
);
const secrets = { WEBHOOK_SECRET: "s3cret" };

describe("startExecution", () => {
  it("records the trigger and orders the reachable nodes", () => {
    const call = webhookCall({ "x-webhook-secret": "s3cret" });
    const state = startExecution(sharedSecret, "webhook_1", call, T0);
    expect(state).toEqual({
      triggerKey: "webhook_1",
      status: "running",
      order: ["webhook_1", "check", "ok", "denied"],
      position: 1,
      active: ["webhook_1", "check"],
      outputs: { webhook_1: call },
      runs: [
        {
          key: "webhook_1",
          type: "webhook",
          status: "succeeded",
          output: call,
          startedAt: T0,
          finishedAt: T0,
        },
      ],
      lastNodeKey: "webhook_1",
      failedNodeKey: null,
      waitUntil: null,
    });
  });

  it("throws for a key that is not a trigger of the definition", () => {
    expect(() => startExecution(sharedSecret, "check", {}, T0)).toThrow(/not a trigger/);
    expect(() => startExecution(sharedSecret, "webhook_9", {}, T0)).toThrow(/not a trigger/);
  });

  it("leaves out nodes only another trigger reaches", () => {
    const definition = define(
      [
        { type: "webhook" },
        { type: "conversation_event", agentId: "agt_1" },
        { key: "a", type: "set", fields: {} },
        { key: "b", type: "set", fields: {} },
      ],
      [
        { from: "webhook_1", to: "a" },
        { from: "conversation_event_1", to: "b" },
      ],
    );
    expect(startExecution(definition, "conversation_event_1", {}, T0).order).toEqual([
      "conversation_event_1",
      "b",
    ]);
  });
});

describe("advance: conditions and branches (spec 5)", () => {
  it("takes the true branch for the right secret and skips the other without a run", () => {
    const state = startExecution(
      sharedSecret,
      "webhook_1",
      webhookCall({ "x-webhook-secret": "s3cret" }),
      T0,
    );
    expect(advance(sharedSecret, state, secrets, T0 + 5)).toEqual({
      kind: "finished",
      status: "succeeded",
    });
    expect(state.status).toBe("succeeded");
    expect(state.runs.map(({ key, status }) => `${key}:${status}`)).toEqual([
      "webhook_1:succeeded",
      "check:succeeded",
      "ok:succeeded",
    ]);
    expect(state.outputs.check).toEqual({ result: true });
    expect(state.runs[2]).toMatchObject({ startedAt: T0 + 5, finishedAt: T0 + 5 });
    expect(finalOutput(state)).toEqual({ ok: true });
  });

  it("takes the false branch for a wrong or missing secret", () => {
    const cases: Record<string, string>[] = [{ "x-webhook-secret": "guess" }, {}];
    for (const headers of cases) {
      const state = startExecution(sharedSecret, "webhook_1", webhookCall(headers), T0);
      advance(sharedSecret, state, secrets, T0);
      expect(state.runs.map(({ key }) => key)).toEqual(["webhook_1", "check", "denied"]);
      expect(finalOutput(state)).toEqual({ ok: false });
      expect(state.lastNodeKey).toBe("denied");
    }
  });

  it("returns the finished step again without changes once finished", () => {
    const state = startExecution(sharedSecret, "webhook_1", webhookCall({}), T0);
    advance(sharedSecret, state, secrets, T0);
    const snapshot = roundTrip(state);
    expect(advance(sharedSecret, state, secrets, T0 + 1000)).toEqual({
      kind: "finished",
      status: "succeeded",
    });
    expect(state).toEqual(snapshot);
  });

  it("runs a node reached by two paths once, in a deterministic order", () => {
    const definition = define(
      [
        { type: "webhook" },
        { key: "join", type: "set", fields: { l: "{{left.v}}", r: "{{right.v}}" } },
        { key: "right", type: "set", fields: { v: "R" } },
        { key: "left", type: "set", fields: { v: "L" } },
      ],
      [
        { from: "webhook_1", to: "left" },
        { from: "webhook_1", to: "right" },
        { from: "left", to: "join" },
        { from: "right", to: "join" },
      ],
    );
    const state = startExecution(definition, "webhook_1", {}, T0);
    expect(state.order).toEqual(["webhook_1", "right", "left", "join"]);
    advance(definition, state, {}, T0);
    expect(state.runs.map(({ key }) => key)).toEqual(["webhook_1", "right", "left", "join"]);
    expect(finalOutput(state)).toEqual({ l: "L", r: "R" });
  });

  it("runs a join once when only one of its inputs was taken", () => {
    const definition = define(
      [
        { type: "webhook" },
        { key: "big", type: "condition", left: "{{webhook_1.body.n}}", operator: "gt", right: 10 },
        { key: "yes", type: "set", fields: { size: "big" } },
        { key: "no", type: "set", fields: { size: "small" } },
        {
          key: "join",
          type: "set",
          fields: { size: "{{yes.size}}{{no.size}}", n: "{{webhook_1.body.n}}" },
        },
      ],
      [
        { from: "webhook_1", to: "big" },
        { from: "big", to: "yes", branch: "true" },
        { from: "big", to: "no", branch: "false" },
        { from: "yes", to: "join" },
        { from: "no", to: "join" },
      ],
    );
    const state = startExecution(definition, "webhook_1", webhookCall({}, { n: 3 }), T0);
    advance(definition, state, {}, T0);
    expect(state.runs.map(({ key }) => key)).toEqual(["webhook_1", "big", "no", "join"]);
    expect(finalOutput(state)).toEqual({ size: "small", n: 3 });
  });
});
