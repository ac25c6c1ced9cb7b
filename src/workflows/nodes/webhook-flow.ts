/**
 * A webhook node's flow control (docs/webhooks.md#flow-control): calls merged into one execution
 * (`debounce`), gathered into one (`batch`), or let start at a limited rate (`throttle`); and the
 * rules that keep gathering to immediate answers, one of the two per node.
 */
import { z } from "@hono/zod-openapi";
import { isPlainObject } from "../engine/template";
import { setting, wholeNumber } from "./common";
import type { Flag, Given } from "./problems";

const DAY = 86_400;
const HOUR = 3_600;

const keyTemplate = (about: string) =>
  setting(z.string().max(500), {
    about,
    example: "{{webhook_1.body.customer}}",
    code: "invalid_type",
    message: "A template over the call, at most 500 characters.",
  });

/** A webhook node's `debounce` setting (docs/webhooks.md#debounce), built with its model. */
export const debounceSetting = () =>
  z
    .strictObject({
      key: keyTemplate(
        'A template over this node\'s output naming whose calls merge, such as `{{webhook_1.body.customer}}`; one that renders empty counts under the key "".',
      ),
      periodSeconds: wholeNumber(
        1,
        DAY,
        "The quiet period (s): the execution starts once no call of its key came for this long.",
      ),
      maxWaitSeconds: wholeNumber(
        1,
        DAY,
        "At most this long after the first call (s) the execution starts, however busy its key. Default: none.",
      ).optional(),
    })
    .openapi("WebhookDebounce", {
      description:
        "Calls of one key within the period merge into one execution, run with the newest call's data once the period passes without a newer call (or `maxWaitSeconds` after the first); each call is answered at once with that execution's id, merged ones with `x-debounced: true` (docs/webhooks.md#debounce). responseMode immediate only.",
    })
    .optional();

/** A webhook node's `batch` setting (docs/webhooks.md#batch), built with its model. */
export const batchSetting = () =>
  z
    .strictObject({
      maxSize: wholeNumber(2, 1_000, "The batch starts once this many calls have arrived."),
      maxWaitSeconds: wholeNumber(
        1,
        HOUR,
        "The batch starts this long after its first call (s), however few it holds.",
      ),
      key: keyTemplate(
        'A template over this node\'s output: each key gathers its own batches. Default: none (one batch at a time, the key "").',
      ).optional(),
    })
    .openapi("WebhookBatch", {
      description:
        "Calls gather into one execution whose trigger output is `{items: [{body, headers, queryParams, method, receivedAt}]}`, started at `maxSize` calls or `maxWaitSeconds` after the first; each call is answered at once with the batch's execution id (docs/webhooks.md#batch). responseMode immediate only.",
    })
    .optional();

/**
 * A webhook node's `throttle` setting (docs/webhooks.md#throttle), built with its model: at most
 * `limit` executions of its calls start per period, per key; later calls wait in the queue.
 */
export const throttleSetting = () =>
  z
    .strictObject({
      // At most 1,000: the log of start times a throttle keeps stays small.
      limit: wholeNumber(1, 1_000, "How many executions may start per period (per key)."),
      periodSeconds: wholeNumber(
        1,
        DAY,
        "The period (s), sliding: at any moment, at most `limit` starts in the last period.",
      ),
      key: keyTemplate(
        'A template over this node\'s output, such as `{{webhook_1.body.customer}}`: each key has its own limit. Default: none (all calls together, the key "").',
      ).optional(),
    })
    .openapi("WebhookThrottle", {
      description:
        "At most `limit` executions of this node's calls start per `periodSeconds` (per key); later calls wait in the workflow's queue, answered `x-execution-status: queued`, and 429 queue_full past its queueLimit (docs/webhooks.md#throttle).",
    })
    .optional();

/**
 * The save-time rules of gathering (docs/webhooks.md#flow-control): neither with a held caller
 * (lastNode, responseNode: the caller of a merged or gathered call has no execution of its own to
 * wait for), and not both on one node (which call's data would the execution run with?). Each
 * refusal is `not_allowed` on the setting, its message saying why.
 */
export function gatherRules(node: Given, mode: string, flag: Flag): void {
  const present = (["debounce", "batch"] as const).filter((field) => isPlainObject(node[field]));
  for (const field of mode === "immediate" ? [] : present) {
    const message = `${field} answers each call at once with the execution's id, so it needs responseMode "immediate", not "${mode}".`;
    flag([field], "not_allowed", message);
  }
  if (present.length === 2) {
    const message =
      "debounce and batch cannot be on one node: a debounced execution runs with the newest call alone, a batch with every call.";
    flag(["batch"], "not_allowed", message);
  }
}

/** The trigger output of a batch node, as the editor offers it to later nodes' templates. */
export const BATCH_OUTPUT = {
  items: [{ body: {}, headers: {}, queryParams: {}, method: "", receivedAt: "" }],
};
