/**
 * Resuming from stored state (docs/api/webhooks.md#durability): a restarted runner continues a
 * pending fetch, a wait and a branch decision from a JSON copy of the state.
 */
import { describe, expect, it } from "vitest";
import {
  advance,
  completeFetch,
  completeWait,
  finalOutput,
  startExecution,
} from "../../../src/workflows/engine/engine";
import { define } from "../../helpers/definitions";
import {
  apiSecrets,
  expectedRequest,
  fetchFlow,
  roundTrip,
  T0,
  webhookCall,
} from "../../helpers/engine-flows";

describe("resuming from stored state (JSON round trip)", () => {
  it("continues a pending fetch from a stored copy", () => {
    const definition = fetchFlow();
    const first = startExecution(definition, "webhook_1", webhookCall({}, { id: 7 }), T0);
    advance(definition, first, apiSecrets, T0);
    const resumed = roundTrip(first);
    expect(advance(definition, resumed, apiSecrets, T0 + 60_000)).toEqual({
      kind: "fetch",
      nodeKey: "req",
      request: expectedRequest,
    });
    expect(resumed.runs).toHaveLength(2);
    completeFetch(
      definition,
      resumed,
      { status: 200, headers: {}, body: { name: "Grace" } },
      T0 + 61_000,
    );
    expect(advance(definition, resumed, apiSecrets, T0 + 61_000)).toEqual({
      kind: "finished",
      status: "succeeded",
    });
    expect(resumed.runs.map(({ key, status }) => `${key}:${status}`)).toEqual([
      "webhook_1:succeeded",
      "req:succeeded",
      "after:succeeded",
    ]);
    expect(finalOutput(resumed)).toEqual({ got: "Grace", status: 200 });
  });

  it("continues a wait and a branch decision from a stored copy", () => {
    const definition = define(
      [
        { type: "webhook" },
        { key: "pause", type: "wait", seconds: 1 },
        {
          key: "gate",
          type: "condition",
          left: "{{webhook_1.body.go}}",
          operator: "equals",
          right: true,
        },
        { key: "go", type: "set", fields: { went: "{{webhook_1.body.go}}" } },
        { key: "stop", type: "set", fields: { went: false } },
      ],
      [
        { from: "webhook_1", to: "pause" },
        { from: "pause", to: "gate" },
        { from: "gate", to: "go", branch: "true" },
        { from: "gate", to: "stop", branch: "false" },
      ],
    );
    const state = startExecution(definition, "webhook_1", webhookCall({}, { go: "true" }), T0);
    advance(definition, state, {}, T0);
    const resumed = roundTrip(state);
    expect(advance(definition, resumed, {}, T0 + 500)).toEqual({
      kind: "wait",
      nodeKey: "pause",
      until: T0 + 1000,
    });
    expect(completeWait(definition, resumed, T0 + 1000)).toBe(true);
    const again = roundTrip(resumed);
    expect(advance(definition, again, {}, T0 + 1001)).toEqual({
      kind: "finished",
      status: "succeeded",
    });
    expect(again.runs.map(({ key }) => key)).toEqual(["webhook_1", "pause", "gate", "go"]);
    expect(finalOutput(again)).toEqual({ went: "true" });
  });
});
