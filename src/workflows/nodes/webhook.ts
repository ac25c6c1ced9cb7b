/**
 * The webhook node (docs/api/webhooks.md#definition): a trigger with a URL, how its calls are
 * answered (docs/webhooks.md#replies), its signature check and deduplication (webhook-checks.ts).
 */
import { z } from "@hono/zod-openapi";
import { isPlainObject } from "../engine/template";
import { defineNode, setting, withDefault } from "./common";
import { replyBody, replyHeaders } from "./reply";
import {
  dedupeSetting,
  defaultWindowSeconds,
  SIGNATURE_PRESETS,
  verifySetting,
} from "./webhook-checks";
import {
  BATCH_OUTPUT,
  batchSetting,
  debounceSetting,
  gatherRules,
  throttleSetting,
} from "./webhook-flow";

const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"] as const;
/** The settings of an immediate webhook's own reply. */
const REPLY_FIELDS = ["responseStatus", "responseHeaders", "responseBody"];

/** A method setting (a webhook's, an http_request's): `invalid_http_method` when none of them. */
export const httpMethod = (fallback: (typeof HTTP_METHODS)[number], about: string) =>
  withDefault(z.enum(HTTP_METHODS), fallback, {
    about,
    codes: { invalid_value: "invalid_http_method" },
  });

const presetOf = (verify: unknown) =>
  isPlainObject(verify) ? SIGNATURE_PRESETS.find((known) => known === verify.preset) : undefined;

/**
 * A webhook trigger: its reply settings only when immediate (`not_allowed` otherwise), a dedupe
 * key unless it has a verify preset, a dedupe window left out filled with the preset's default, and
 * debounce or batch (webhook-flow.ts) with responseMode immediate only, never both.
 */
export const webhook = defineNode({
  type: "webhook",
  label: "Webhook",
  trigger: true,
  templated: [
    "dedupe.key",
    "debounce.key",
    "batch.key",
    "throttle.key",
    "responseHeaders",
    "responseBody",
  ],
  description:
    "Starts an execution for each call to its URL (docs/api/webhooks.md#urls); `responseStatus`, `responseHeaders` and `responseBody` only with responseMode immediate (docs/webhooks.md#replies).",
  settings: () => ({
    httpMethod: httpMethod("POST", "The method the node's URL accepts; others get 405."),
    responseMode: withDefault(z.enum(["immediate", "lastNode", "responseNode"]), "immediate", {
      about:
        "immediate: answered at once; lastNode: with the final node's output; responseNode: by the first respond node reached (docs/webhooks.md#respond-node).",
    }),
    responseTimeoutSeconds: withDefault(z.number().int().min(1).max(100), 25, {
      about:
        "lastNode and responseNode: how long the caller is held before 504 workflow_timeout (s).",
    }),
    rateLimitPerMinute: withDefault(z.number().int().min(1).max(100_000), 1200, {
      about: "Calls accepted per minute on the node's URL; more get 429.",
    }),
    verify: verifySetting().optional(),
    dedupe: dedupeSetting(),
    throttle: throttleSetting(),
    debounce: debounceSetting(),
    batch: batchSetting(),
    responseStatus: setting(z.number().int().min(200).max(299).optional(), {
      about: "immediate only: the reply's status. Default: 200.",
      code: "out_of_range",
      message: "responseStatus must be from 200 to 299.",
    }),
    responseHeaders: replyHeaders(
      "immediate only: the reply's headers, templates over the call and {{$execution.id}}. Default: none.",
    ).optional(),
    responseBody: replyBody(
      'immediate only: the reply\'s body, its strings templates over the call and {{$execution.id}}. Default: `{"success": true, "executionId": …}`.',
    ),
  }),
  output: (node) =>
    isPlainObject(node.batch)
      ? BATCH_OUTPUT
      : { body: {}, headers: {}, queryParams: {}, method: "" },
  rules: (node, flag) => {
    const mode = typeof node.responseMode === "string" ? node.responseMode : "immediate";
    for (const field of mode === "immediate" ? [] : REPLY_FIELDS) {
      // Not a setting in this mode: nothing else is said of it (`alone`).
      const message = `${field} is for responseMode "immediate" only.`;
      if (Object.hasOwn(node, field)) flag([field], "not_allowed", message, true);
    }
    gatherRules(node, mode, flag);
    if (isPlainObject(node.dedupe) && node.dedupe.key === undefined && !presetOf(node.verify)) {
      flag(["dedupe", "key"], "required", "dedupe needs a key (a template), or a verify preset.");
    }
  },
  normalize: (node) => {
    if (!node.dedupe || node.dedupe.windowSeconds !== undefined) return node;
    const windowSeconds = defaultWindowSeconds(node.verify?.preset);
    return { ...node, dedupe: { ...node.dedupe, windowSeconds } };
  },
});
