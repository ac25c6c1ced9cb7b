/**
 * A webhook node's gathering settings (docs/webhooks.md#debounce, docs/webhooks.md#batch): calls
 * merged into one execution (`debounce`) or gathered into one (`batch`), and the rules that keep
 * them to immediate answers, one of the two per node.
 */
import { z } from "@hono/zod-openapi";
import { once } from "../../platform/once";
import { isPlainObject } from "../engine/template";
import { setting, wholeNumber } from "./common";
import type { Flag, Given } from "./problems";

const DAY = 86_400;
const HOUR = 3_600;

const seconds = (max: number, about: string) => wholeNumber(1, max, about);

const keyTemplate = (about: string) =>
  setting(z.string().max(500), {
    about,
    example: "{{webhook_1.body.customer}}",
    code: "invalid_type",
    message: "A template over the call, at most 500 characters.",
  });

/** The schemas of `debounce` and `batch`, built on first use (docs/performance.md#start-up). */
const gatherSchemas = once(() => {
  const Debounce = z
    .strictObject({
      key: keyTemplate(
        'A template over this node\'s output naming whose calls merge, such as `{{webhook_1.body.customer}}`; one that renders empty counts under the key "".',
      ),
      periodSeconds: seconds(
        DAY,
        "The quiet period (s): the execution starts once no call of its key came for this long.",
      ),
      maxWaitSeconds: seconds(
        DAY,
        "At most this long after the first call (s) the execution starts, however busy its key. Default: none.",
      ).optional(),
    })
    .openapi("WebhookDebounce", {
      description:
        "Calls of one key within the period merge into one execution, run with the newest call's data once the period passes without a newer call (or `maxWaitSeconds` after the first); each call is answered at once with that execution's id, merged ones with `x-debounced: true` (docs/webhooks.md#debounce). responseMode immediate only.",
    });
  const Batch = z
    .strictObject({
      maxSize: wholeNumber(2, 1_000, "The batch starts once this many calls have arrived."),
      maxWaitSeconds: seconds(
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
    });
  return { Debounce, Batch };
});

/** A webhook node's `debounce` setting (docs/webhooks.md#debounce). */
export const debounceSetting = () => gatherSchemas().Debounce.optional();
/** A webhook node's `batch` setting (docs/webhooks.md#batch). */
export const batchSetting = () => gatherSchemas().Batch.optional();

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
