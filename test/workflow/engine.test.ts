import { describe, expect, it } from "vitest";
import type { JsonValue } from "../../src/platform/json";
import {
  advance,
  completeFetch,
  completeWait,
  failFetch,
  finalOutput,
  startExecution,
} from "../../src/workflow/engine";
import type { ExecutionState, WebhookOutput } from "../../src/workflow/types";
import { define } from "../helpers/definitions";

function webhookCall(headers: Record<string, string>, body: JsonValue = {}): WebhookOutput {
  return { body, headers, queryParams: {}, method: "POST" };
}

const T0 = 1_700_000_000_000;
const roundTrip = (state: ExecutionState): ExecutionState => JSON.parse(JSON.stringify(state));

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

const fetchFlow = (
  neverError = false,
  url = "https://api.example.test/users/{{webhook_1.body.id}}",
) =>
  define(
    [
      { type: "webhook" },
      {
        key: "req",
        type: "http_request",
        method: "POST",
        url,
        headers: {
          Authorization: "Bearer {{secrets.API_KEY}}",
          "X-Count": "{{webhook_1.body.id}}",
        },
        body: { id: "{{webhook_1.body.id}}", note: "hi" },
        neverError,
        timeoutSeconds: 5,
      },
      { key: "after", type: "set", fields: { got: "{{req.body.name}}", status: "{{req.status}}" } },
    ],
    [
      { from: "webhook_1", to: "req" },
      { from: "req", to: "after" },
    ],
  );
const apiSecrets = { API_KEY: "key_abc" };
const expectedRequest = {
  method: "POST",
  url: "https://api.example.test/users/7",
  headers: {
    authorization: "Bearer key_abc",
    "x-count": "7",
    "content-type": "application/json",
  },
  body: '{"id":7,"note":"hi"}',
  timeoutMs: 5000,
};

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
    failFetch(state, "ignored: nothing pending", T0);
    expect(state.status).toBe("running");
    advance(definition, state, apiSecrets, T0);
    failFetch(state, "The request timed out after 5 s.", T0 + 5000);
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
