/**
 * The http_request node (docs/api/webhooks.md#http-request-node): a request to a templated URL,
 * and its retries.
 */

import { z } from "@hono/zod-openapi";
import { isPlainObject } from "../engine/template";
import { defineNode, jsonValue, requiredText, setting, wholeNumber, withDefault } from "./common";
import { flagTo } from "./problems";
import { httpMethod } from "./webhook";

/** Sends a request; a non-2xx response fails it unless `neverError`. */
export const httpRequest = defineNode({
  type: "http_request",
  label: "HTTP Request",
  templated: ["url", "headers", "body"],
  description:
    "Sends a request; its output is `{status, headers, body}` (docs/api/webhooks.md#http-request-node).",
  settings: () => ({
    method: httpMethod("GET", "The method sent."),
    url: requiredText("A template that must resolve to an http(s) URL."),
    headers: withDefault(
      // zod's records drop a `__proto__` key (it would name the prototype): refused, never lost.
      z.preprocess(
        (input, ctx) => {
          if (isPlainObject(input) && Object.hasOwn(input, "__proto__")) {
            flagTo(ctx)(["__proto__"], "invalid_header", "`__proto__` cannot name a header here.");
          }
          return input;
        },
        z.record(z.string(), z.string()),
      ),
      {},
      { about: "Headers sent; values are templates." },
    ),
    body: setting(jsonValue().optional(), {
      about:
        "A template: a string is sent as is, anything else as JSON; not sent on GET and HEAD. Absent: no body.",
    }),
    neverError: withDefault(z.boolean(), false, {
      about: "When true, a non-2xx response does not fail the node.",
    }),
    timeoutSeconds: withDefault(z.number().int().min(1).max(60), 30, {
      about: "How long an attempt may take (s).",
    }),
    // Attempts in all, the first wait (s), the statuses retried.
    retry: z
      .strictObject({
        maxAttempts: wholeNumber(
          1,
          10,
          "Attempts in all, the first included",
          "maxAttempts must be an integer from 1 to 10.",
        ),
        backoffSeconds: withDefault(z.number().min(0.1).max(3_600), 1, {
          about:
            "The wait before the second attempt (s), doubled before each next one, ±20 % jitter.",
          code: "out_of_range",
          message: "backoffSeconds must be from 0.1 to 3600.",
        }),
        on: setting(
          z
            .array(z.number().int().min(300).max(599))
            .min(1)
            .transform((statuses) => [...new Set(statuses)])
            .optional(),
          {
            about: "The statuses retried. Default: 429 and every 5xx.",
            code: "invalid_type",
            message: "on must list status codes from 300 to 599.",
          },
        ),
      })
      .openapi("HttpRetry", {
        description:
          "Attempts again after a network error, a timeout or a status in `on`; then the node fails as it would have (docs/api/webhooks.md#http-request-node).",
      })
      .optional(),
  }),
  output: () => ({ status: 200, headers: {}, body: {} }),
});
