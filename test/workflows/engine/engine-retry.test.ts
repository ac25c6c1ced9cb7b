/**
 * Retries of http_request nodes in the pure engine (docs/api/webhooks.md#http-request-node): a
 * retried failure parks the run on a wait (exponential backoff, jitter), the wait's end fetches
 * again on the same run, each attempt is recorded, and the last attempt's failure fails the node;
 * statuses outside `on` (default 429 and 5xx) fail at once.
 */
import { describe, expect, it } from "vitest";
import {
  advance,
  completeFetch,
  completeWait,
  failFetch,
  startExecution,
} from "../../../src/workflows/engine/engine";
import { parseDefinition } from "../../../src/workflows/nodes/validate";
import { define } from "../../helpers/definitions";
import { apiSecrets, roundTrip, T0, webhookCall } from "../../helpers/engine-flows";

const flow = (retry: Record<string, unknown>) =>
  define(
    [
      { type: "webhook" },
      { key: "req", type: "http_request", url: "https://api.example.test/x", retry },
      { key: "after", type: "set", fields: { status: "{{req.status}}" } },
    ],
    [
      { from: "webhook_1", to: "req" },
      { from: "req", to: "after" },
    ],
  );
const half = () => 0.5;
const answer = (status: number) => ({ status, headers: {}, body: null });

describe("http_request retries", () => {
  it("waits 2 s, then 4 s, fetching again on the same run, and succeeds on the third attempt", () => {
    const definition = flow({ maxAttempts: 3, backoffSeconds: 2 });
    let state = startExecution(definition, "webhook_1", webhookCall({}), T0);
    expect(advance(definition, state, apiSecrets, T0).kind).toBe("fetch");
    completeFetch(definition, state, answer(503), T0, half);
    expect(advance(definition, state, apiSecrets, T0)).toEqual({
      kind: "wait",
      nodeKey: "req",
      until: T0 + 2000,
    });
    // A restart between attempts: the state is plain JSON.
    state = roundTrip(state);
    expect(completeWait(definition, state, T0 + 1999)).toBe(false);
    expect(completeWait(definition, state, T0 + 2000)).toBe(true);
    expect(advance(definition, state, apiSecrets, T0 + 2000).kind).toBe("fetch");
    failFetch(definition, state, "The request timed out after 30 s.", T0 + 2000, half);
    expect(advance(definition, state, apiSecrets, T0 + 2000)).toMatchObject({
      kind: "wait",
      until: T0 + 6000,
    });
    completeWait(definition, state, T0 + 6000);
    expect(advance(definition, state, apiSecrets, T0 + 6000).kind).toBe("fetch");
    completeFetch(definition, state, answer(200), T0 + 6000, half);
    expect(advance(definition, state, apiSecrets, T0 + 6000)).toEqual({
      kind: "finished",
      status: "succeeded",
    });
    const req = state.runs.filter((run) => run.key === "req");
    expect(req).toHaveLength(1);
    expect(req[0]?.attempts).toEqual([
      { at: T0, status: 503, error: "HTTP 503 from the server." },
      { at: T0 + 2000, status: null, error: "The request timed out after 30 s." },
    ]);
    expect(state.outputs.after).toEqual({ status: 200 });
  });

  it("fails the node after maxAttempts, and at once for a status that is not retried", () => {
    const definition = flow({ maxAttempts: 2, backoffSeconds: 1 });
    const state = startExecution(definition, "webhook_1", webhookCall({}), T0);
    advance(definition, state, apiSecrets, T0);
    completeFetch(definition, state, answer(429), T0, half);
    completeWait(definition, state, T0 + 1000);
    advance(definition, state, apiSecrets, T0 + 1000);
    completeFetch(definition, state, answer(502), T0 + 1000, half);
    expect(state).toMatchObject({ status: "failed", failedNodeKey: "req" });
    expect(state.runs[1]?.attempts).toHaveLength(2);

    const notRetried = startExecution(definition, "webhook_1", webhookCall({}), T0);
    advance(definition, notRetried, apiSecrets, T0);
    completeFetch(definition, notRetried, answer(404), T0, half);
    expect(notRetried).toMatchObject({ status: "failed", failedNodeKey: "req" });

    const listed = flow({ maxAttempts: 2, backoffSeconds: 1, on: [404] });
    const retried = startExecution(listed, "webhook_1", webhookCall({}), T0);
    advance(listed, retried, apiSecrets, T0);
    completeFetch(listed, retried, answer(404), T0, () => 0);
    expect(advance(listed, retried, apiSecrets, T0)).toMatchObject({
      kind: "wait",
      until: T0 + 800,
    });
  });

  it("refuses bad retry settings with every problem listed", () => {
    const result = parseDefinition({
      nodes: [
        { type: "webhook" },
        {
          key: "req",
          type: "http_request",
          url: "https://x.test",
          retry: { maxAttempts: 11, backoffSeconds: 0, on: [200], extra: true },
        },
      ],
      connections: [{ from: "webhook_1", to: "req" }],
    });
    expect(result.ok ? [] : result.problems.map((p) => `${p.field} ${p.code}`).sort()).toEqual([
      "nodes[1].retry.backoffSeconds out_of_range",
      "nodes[1].retry.extra unknown_field",
      "nodes[1].retry.maxAttempts out_of_range",
      "nodes[1].retry.on invalid_type",
    ]);
  });
});
