/**
 * Shared fixtures of the engine tests (test/workflows/engine/engine*.test.ts): a webhook call, a fixed
 * clock, a JSON round trip as a restarted runner stores and reads state, and an http_request flow
 * with the request it must produce.
 */
import type { JsonValue } from "../../src/platform/json";
import type { ExecutionState, WebhookOutput } from "../../src/workflows/nodes/types";
import { define } from "./definitions";

/** What a webhook trigger hands the engine for a POST with these headers and body. */
export function webhookCall(headers: Record<string, string>, body: JsonValue = {}): WebhookOutput {
  return { body, headers, queryParams: {}, method: "POST" };
}

/** The tests' epoch ms. */
export const T0 = 1_700_000_000_000;
/** The state as a restarted runner reads it back from storage. */
export const roundTrip = (state: ExecutionState): ExecutionState =>
  JSON.parse(JSON.stringify(state));

/** webhook → http_request (templated url, headers, body) → set. */
export const fetchFlow = (
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
export const apiSecrets = { API_KEY: "key_abc" };
/** The fetch `fetchFlow` asks for with `apiSecrets` and body `{id: 7}`. */
export const expectedRequest = {
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
