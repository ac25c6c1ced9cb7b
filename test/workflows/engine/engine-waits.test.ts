/**
 * The step machine's waits (docs/api/webhooks.md#http-request-node, #durability): an http_request
 * node asks the runner for a fetch and continues with its response or failure, a wait node continues
 * at its time, and both resume from a JSON copy of the state as a restarted runner would.
 */
import { describe, expect, it } from "vitest";
import {
  advance,
  completeFetch,
  completeWait,
  failFetch,
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

describe("advance: http_request", () => {
  it("asks for a fetch, re-issues it without a second run, then continues with the response", () => {
    const definition = fetchFlow();
    const state = startExecution(definition, "webhook_1", webhookCall({}, { id: 7 }), T0);
    const step = advance(definition, state, apiSecrets, T0 + 1);
    expect(step).toEqual({ kind: "fetch", nodeKey: "req", request: expectedRequest });
    expect(state.runs[1]).toEqual({
      key: "req",
      type: "http_request",
      status: "running",
      startedAt: T0 + 1,
      finishedAt: null,
    });
    expect(state.position).toBe(1);

    expect(advance(definition, state, apiSecrets, T0 + 2)).toEqual(step);
    expect(state.runs).toHaveLength(2);

    completeFetch(
      definition,
      state,
      { status: 201, headers: { a: "b" }, body: { name: "Ada" } },
      T0 + 3,
    );
    expect(state.runs[1]).toMatchObject({
      status: "succeeded",
      finishedAt: T0 + 3,
      startedAt: T0 + 1,
    });
    expect(state.outputs.req).toEqual({ status: 201, headers: { a: "b" }, body: { name: "Ada" } });
    // A duplicate delivery changes nothing.
    completeFetch(definition, state, { status: 500, headers: {}, body: "" }, T0 + 4);
    expect(state.status).toBe("running");

    expect(advance(definition, state, apiSecrets, T0 + 5)).toEqual({
      kind: "finished",
      status: "succeeded",
    });
    expect(finalOutput(state)).toEqual({ got: "Ada", status: 201 });
  });

  it("fails the node on a non-2xx response unless neverError is set", () => {
    const strict = fetchFlow(false);
    const state = startExecution(strict, "webhook_1", webhookCall({}, { id: 7 }), T0);
    advance(strict, state, apiSecrets, T0);
    completeFetch(strict, state, { status: 503, headers: {}, body: "down" }, T0 + 9);
    expect(state).toMatchObject({ status: "failed", failedNodeKey: "req" });
    expect(state.runs[1]).toMatchObject({
      status: "failed",
      error: "HTTP 503 from the server.",
      finishedAt: T0 + 9,
    });
    expect(advance(strict, state, apiSecrets, T0 + 10)).toEqual({
      kind: "finished",
      status: "failed",
    });
    expect(state.runs).toHaveLength(2);
    expect(finalOutput(state)).toEqual(webhookCall({}, { id: 7 }));

    const lenient = fetchFlow(true);
    const other = startExecution(lenient, "webhook_1", webhookCall({}, { id: 7 }), T0);
    advance(lenient, other, apiSecrets, T0);
    completeFetch(lenient, other, { status: 404, headers: {}, body: { name: "none" } }, T0 + 1);
    expect(advance(lenient, other, apiSecrets, T0 + 2)).toEqual({
      kind: "finished",
      status: "succeeded",
    });
    expect(finalOutput(other)).toEqual({ got: "none", status: 404 });
  });

  it("fails the node with the runner's message on a network error", () => {
    const definition = fetchFlow();
    const state = startExecution(definition, "webhook_1", webhookCall({}, { id: 7 }), T0);
    failFetch(definition, state, "ignored: nothing pending", T0);
    expect(state.status).toBe("running");
    advance(definition, state, apiSecrets, T0);
    failFetch(definition, state, "The request timed out after 5 s.", T0 + 5000);
    expect(state).toMatchObject({ status: "failed", failedNodeKey: "req" });
    expect(state.runs[1]).toMatchObject({
      error: "The request timed out after 5 s.",
      finishedAt: T0 + 5000,
    });
  });

  it("fails a URL that is not http(s) without showing the resolved value", () => {
    const definition = fetchFlow(false, "{{secrets.TARGET}}");
    for (const target of ["ftp://secret-host/x", "not a url", ""]) {
      const state = startExecution(definition, "webhook_1", webhookCall({}, { id: 7 }), T0);
      expect(advance(definition, state, { ...apiSecrets, TARGET: target }, T0)).toEqual({
        kind: "finished",
        status: "failed",
      });
      expect(state.runs[1]).toMatchObject({
        key: "req",
        status: "failed",
        error: "The url setting did not resolve to an http(s) URL.",
      });
      expect(JSON.stringify(state.runs)).not.toContain("secret-host");
    }
  });

  it("sends string bodies as is, keeps a given content-type and sends no body on GET", () => {
    const definition = define(
      [
        { type: "webhook" },
        {
          key: "put",
          type: "http_request",
          method: "PUT",
          url: "http://example.test",
          headers: { "Content-Type": "text/plain" },
          body: "n={{webhook_1.body.n}}",
        },
        { key: "get", type: "http_request", url: "https://example.test/q", body: { a: 1 } },
      ],
      [
        { from: "webhook_1", to: "put" },
        { from: "put", to: "get" },
      ],
    );
    const state = startExecution(definition, "webhook_1", webhookCall({}, { n: 2 }), T0);
    expect(advance(definition, state, {}, T0)).toMatchObject({
      request: {
        url: "http://example.test/",
        headers: { "content-type": "text/plain" },
        body: "n=2",
        timeoutMs: 30_000,
      },
    });
    completeFetch(definition, state, { status: 200, headers: {}, body: "" }, T0);
    expect(advance(definition, state, {}, T0)).toMatchObject({
      nodeKey: "get",
      request: { method: "GET", headers: {}, body: null },
    });
  });
});

const waitFlow = (seconds: number) =>
  define(
    [
      { type: "webhook" },
      { key: "pause", type: "wait", seconds },
      { key: "done", type: "set", fields: { waited: "{{pause.waitedSeconds}}" } },
    ],
    [
      { from: "webhook_1", to: "pause" },
      { from: "pause", to: "done" },
    ],
  );

describe("advance: wait", () => {
  it("waits until the time is reached; early and repeated alarms change nothing", () => {
    const definition = waitFlow(10);
    const state = startExecution(definition, "webhook_1", {}, T0);
    const step = advance(definition, state, {}, T0 + 1);
    expect(step).toEqual({ kind: "wait", nodeKey: "pause", until: T0 + 10_001 });
    expect(state.waitUntil).toBe(T0 + 10_001);
    expect(state.runs[1]).toMatchObject({ status: "waiting", finishedAt: null });
    expect(advance(definition, state, {}, T0 + 2)).toEqual(step);
    expect(state.runs).toHaveLength(2);

    const before = roundTrip(state);
    expect(completeWait(definition, state, T0 + 10_000)).toBe(false);
    expect(state).toEqual(before);

    expect(completeWait(definition, state, T0 + 10_001)).toBe(true);
    expect(state.waitUntil).toBeNull();
    expect(state.runs[1]).toMatchObject({
      status: "succeeded",
      output: { waitedSeconds: 10 },
      startedAt: T0 + 1,
      finishedAt: T0 + 10_001,
    });
    expect(completeWait(definition, state, T0 + 20_000)).toBe(false);
    expect(advance(definition, state, {}, T0 + 10_002)).toEqual({
      kind: "finished",
      status: "succeeded",
    });
    expect(finalOutput(state)).toEqual({ waited: 10 });
    expect(state.runs).toHaveLength(3);
  });

  it("goes straight on for a zero-second wait", () => {
    const definition = waitFlow(0);
    const state = startExecution(definition, "webhook_1", {}, T0);
    expect(advance(definition, state, {}, T0)).toEqual({ kind: "finished", status: "succeeded" });
    expect(state.outputs.pause).toEqual({ waitedSeconds: 0 });
    expect(finalOutput(state)).toEqual({ waited: 0 });
  });
});
