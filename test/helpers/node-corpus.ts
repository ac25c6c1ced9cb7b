/**
 * The API's verdicts on nodes (test/workflows/node-models.test.ts, and the editor's in
 * test/dashboard/editor-model.test.ts): valid ones using every setting of every type, at its
 * limits, and invalid ones each just past one rule, with exactly the problems a save answers
 * (field relative to the node, then the detail code of docs/errors.md#invalid-request and
 * docs/api/webhooks.md#definition). Templates read `hook`, the webhook the test puts before
 * non-triggers.
 */

import { PERSON_CORPUS } from "./node-corpus-person";

export type RawNode = Record<string, unknown>;
export type Refused = { node: RawNode; problems: string[] };
export type Corpus = { valid: RawNode[]; invalid: Refused[] };

/** A refused node and the problems it gives. */
export const bad = (node: RawNode, ...problems: string[]): Refused => ({ node, problems });

/** `n` headers `x-h0`, `x-h1`, … */
export const manyHeaders = (n: number): Record<string, string> =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`x-h${i}`, "v"]));

/** A JSON string of exactly `bytes` bytes as JSON text, starting with `start` (no escapes). */
export const jsonString = (bytes: number, start = "") => start.padEnd(bytes - 2, "a");

const conversationEvent: Corpus = {
  valid: [
    { type: "conversation_event", agentId: "a" },
    {
      key: "ce",
      type: "conversation_event",
      name: "Chat ended",
      position: { x: -1_000_000, y: 0.5 },
      agentId: "agt_1",
      events: ["conversation.ended"],
    },
    {
      type: "conversation_event",
      agentId: "agt_1",
      events: ["conversation.started", "conversation.ended", "conversation.started"],
    },
  ],
  invalid: [
    bad({ type: "conversation_event" }, "agentId required"),
    bad({ type: "conversation_event", agentId: "" }, "agentId required"),
    bad({ type: "conversation_event", agentId: 5 }, "agentId invalid_type"),
    bad({ type: "conversation_event", agentId: "a", events: [] }, "events required"),
    bad({ type: "conversation_event", agentId: "a", events: "x" }, "events invalid_type"),
    bad(
      { type: "conversation_event", agentId: "a", events: ["conversation.paused"] },
      "events[0] invalid_option",
    ),
    bad({ type: "conversation_event", agentId: "a", events: [3] }, "events[0] invalid_type"),
    bad({ type: "conversation_event", agentId: "a", seconds: 1 }, "seconds unknown_field"),
  ],
};

const condition: Corpus = {
  valid: [
    {
      key: "check",
      type: "condition",
      name: "Check",
      position: { x: -1_000_000, y: 0.5 },
      left: "{{hook.body.x}}",
      operator: "equals",
      right: 1,
    },
    { type: "condition", left: null, operator: "exists" },
    { type: "condition", left: { a: ["{{hook.method}}"] }, operator: "notEquals", right: null },
    ...["contains", "gt", "gte", "lt", "lte"].map((operator) => ({
      type: "condition",
      left: 1,
      operator,
      right: "{{hook.body.n}}",
    })),
  ],
  invalid: [
    bad({ type: "condition", operator: "equals" }, "left required"),
    bad({ type: "condition", left: 1 }, "operator required"),
    bad({ type: "condition", left: 1, operator: "bigger" }, "operator invalid_option"),
    bad({ type: "condition", left: 1, operator: 5 }, "operator invalid_type"),
    bad({ type: "condition", left: 1, operator: "exists", fields: {} }, "fields unknown_field"),
  ],
};

const set: Corpus = {
  valid: [
    { type: "set", fields: {} },
    {
      key: "vars",
      type: "set",
      name: "Vars",
      position: { x: -1_000_000, y: 0.5 },
      fields: { a: "{{hook.body}}", deep: { list: ["{{hook.method}}", 1, null] } },
    },
  ],
  invalid: [
    bad({ type: "set" }, "fields required"),
    bad({ type: "set", fields: "nope" }, "fields invalid_type"),
    bad({ type: "set", fields: [] }, "fields invalid_type"),
    bad({ type: "set", fields: null }, "fields invalid_type"),
    bad({ type: "set", fields: {}, url: "x" }, "url unknown_field"),
  ],
};

const request = (settings: RawNode): RawNode => ({
  type: "http_request",
  url: "https://example.com",
  ...settings,
});

const httpRequest: Corpus = {
  valid: [
    request({}),
    request({
      key: "call",
      name: "Call",
      position: { x: -1_000_000, y: 0.5 },
      method: "PATCH",
      url: "{{hook.body.url}}",
      // Any name passes: the validator checks only that values are strings.
      headers: { "X-A": "{{hook.body.a}}", "any name": "" },
      body: { x: "{{hook.body.x}}" },
      neverError: true,
      timeoutSeconds: 60,
      retry: { maxAttempts: 10, backoffSeconds: 3600, on: [300, 599, 599] },
    }),
    request({
      method: "GET",
      headers: {},
      body: "text",
      neverError: false,
      timeoutSeconds: 1,
      retry: { maxAttempts: 1, backoffSeconds: 0.1 },
    }),
    request({ method: "HEAD", body: null, retry: { maxAttempts: 3 } }),
  ],
  invalid: [
    bad({ type: "http_request" }, "url required"),
    bad(request({ url: "" }), "url required"),
    bad(request({ url: 5 }), "url invalid_type"),
    bad(request({ method: "FETCH" }), "method invalid_http_method"),
    bad(request({ method: "get" }), "method invalid_http_method"),
    bad(request({ headers: { a: 1 } }), "headers.a invalid_type"),
    bad(request({ headers: "x" }), "headers invalid_type"),
    bad(request({ neverError: "yes" }), "neverError invalid_type"),
    bad(request({ timeoutSeconds: 0 }), "timeoutSeconds out_of_range"),
    bad(request({ timeoutSeconds: 61 }), "timeoutSeconds out_of_range"),
    bad(request({ timeoutSeconds: 1.5 }), "timeoutSeconds out_of_range"),
    bad(request({ timeoutSeconds: "30" }), "timeoutSeconds invalid_type"),
    bad(request({ retry: 3 }), "retry invalid_type"),
    bad(request({ retry: {} }), "retry.maxAttempts out_of_range"),
    bad(request({ retry: { maxAttempts: 0 } }), "retry.maxAttempts out_of_range"),
    bad(request({ retry: { maxAttempts: 11 } }), "retry.maxAttempts out_of_range"),
    bad(request({ retry: { maxAttempts: 1.5 } }), "retry.maxAttempts out_of_range"),
    bad(
      request({ retry: { maxAttempts: 2, backoffSeconds: 0.09 } }),
      "retry.backoffSeconds out_of_range",
    ),
    bad(
      request({ retry: { maxAttempts: 2, backoffSeconds: 3601 } }),
      "retry.backoffSeconds out_of_range",
    ),
    bad(
      request({ retry: { maxAttempts: 2, backoffSeconds: "1" } }),
      "retry.backoffSeconds out_of_range",
    ),
    bad(request({ retry: { maxAttempts: 2, on: [] } }), "retry.on invalid_type"),
    bad(request({ retry: { maxAttempts: 2, on: [299] } }), "retry.on invalid_type"),
    bad(request({ retry: { maxAttempts: 2, on: [600] } }), "retry.on invalid_type"),
    bad(request({ retry: { maxAttempts: 2, on: [500.5] } }), "retry.on invalid_type"),
    bad(request({ retry: { maxAttempts: 2, on: 500 } }), "retry.on invalid_type"),
    bad(request({ retry: { maxAttempts: 2, jitter: 0 } }), "retry.jitter unknown_field"),
    bad(request({ seconds: 1 }), "seconds unknown_field"),
  ],
};

const wait: Corpus = {
  valid: [
    { type: "wait", seconds: 0 },
    { key: "pause", type: "wait", name: "Pause", seconds: 86_400, position: { x: 0, y: 0 } },
    { type: "wait", seconds: 0.5 },
  ],
  invalid: [
    bad({ type: "wait" }, "seconds required"),
    bad({ type: "wait", seconds: -1 }, "seconds out_of_range"),
    bad({ type: "wait", seconds: 86_401 }, "seconds out_of_range"),
    bad({ type: "wait", seconds: "5" }, "seconds invalid_type"),
    bad({ type: "wait", seconds: 1, url: "x" }, "url unknown_field"),
  ],
};

const respond: Corpus = {
  valid: [
    { type: "respond" },
    {
      key: "thanks",
      type: "respond",
      name: "Thanks",
      position: { x: -1_000_000, y: 0.5 },
      status: 599,
      headers: manyHeaders(20),
      body: jsonString(16_384, "{{hook.body.id}} {{$execution.id}}"),
      contentType: "xml",
    },
    { type: "respond", status: 200, contentType: "json", body: null },
    { type: "respond", status: 301, headers: { Location: "https://example.com/{{hook.body.id}}" } },
    { type: "respond", status: 399, headers: { location: "/next" } },
    { type: "respond", status: 204, contentType: "text" },
    { type: "respond", status: 205, contentType: "html", headers: {} },
    { type: "respond", status: 201, body: { id: "{{hook.body.id}}" } },
  ],
  invalid: [
    bad({ type: "respond", status: 199 }, "status out_of_range"),
    bad({ type: "respond", status: 600 }, "status out_of_range"),
    bad({ type: "respond", status: 200.5 }, "status out_of_range"),
    bad({ type: "respond", status: "200" }, "status invalid_type"),
    bad({ type: "respond", contentType: "yaml" }, "contentType invalid_option"),
    bad({ type: "respond", contentType: 5 }, "contentType invalid_type"),
    bad({ type: "respond", status: 302 }, "headers missing_location"),
    bad(
      { type: "respond", status: 302, headers: { "x-location": "/" } },
      "headers missing_location",
    ),
    bad({ type: "respond", status: 204, body: "" }, "body not_allowed"),
    bad(
      { type: "respond", status: 304, headers: { location: "/" }, body: null },
      "body not_allowed",
    ),
    bad({ type: "respond", headers: manyHeaders(21) }, "headers too_large"),
    bad({ type: "respond", headers: { Connection: "close" } }, "headers.Connection refused_header"),
    bad({ type: "respond", headers: { "x-a": 5 } }, "headers.x-a invalid_type"),
    bad({ type: "respond", headers: [] }, "headers invalid_type"),
    bad({ type: "respond", body: jsonString(16_385) }, "body too_large"),
    bad({ type: "respond", seconds: 1 }, "seconds unknown_field"),
  ],
};

/** The corpus of every type but webhook, which has node-corpus-webhook.ts. */
export const CORPUS = {
  ...PERSON_CORPUS,
  conversation_event: conversationEvent,
  condition,
  set,
  http_request: httpRequest,
  wait,
  respond,
};
