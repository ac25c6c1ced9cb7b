/**
 * A workflow's `concurrency` setting (docs/webhooks.md#concurrency): the schema requests are
 * validated with, which the OpenAPI document and the editor's workflow settings are built from.
 */
import { z } from "@hono/zod-openapi";
import { once } from "../../platform/once";

const description =
  "At most `limit` executions run at once; the others wait in a FIFO queue of at most `queueLimit` (default 1,000), and a call finding it full is answered 429 queue_full. Absent or null: no limit (docs/webhooks.md#concurrency).";

/** The `concurrency` schemas, built on first use (docs/performance.md#start-up). */
export const concurrencySchemas = once(() => {
  /** As requests give it: `queueLimit` may be left out. */
  const Concurrency = z
    .strictObject({
      limit: z.number().int().min(1).max(100).openapi({
        description: "How many executions of the workflow run at once, 1 to 100.",
      }),
      queueLimit: z.number().int().min(1).max(10_000).default(1_000).openapi({
        description: "How many executions may wait for a slot, 1 to 10,000; more get 429.",
      }),
      key: z.string().min(1).max(500).optional().openapi({
        description:
          'Per-key concurrency: a template over the trigger\'s output, such as `{{webhook_1.body.customer}}`; at most `keyLimit` executions of one key run at once, first in first out per key, while other keys go on. One that renders empty counts under the key "" (docs/webhooks.md#per-key-concurrency).',
        example: "{{webhook_1.body.customer}}",
      }),
      keyLimit: z.number().int().min(1).max(100).optional().openapi({
        description:
          "With `key`: how many executions of one key run at once, 1 to 100. Default 1: a strict order per key.",
      }),
    })
    .superRefine((value, ctx) => {
      if (value.keyLimit !== undefined && value.key === undefined) {
        const message = "keyLimit needs a key: a template naming whose executions it counts.";
        ctx.addIssue({ code: "custom", path: ["keyLimit"], message });
      }
    })
    .transform((value) =>
      value.key === undefined ? value : { ...value, keyLimit: value.keyLimit ?? 1 },
    )
    .openapi("WorkflowConcurrencyInput", { description });
  /**
   * The same limits as a workflow shows them: `queueLimit` is always there (its default was filled
   * in on write), so the document lists it as required and the SDK's response type has it.
   */
  const ConcurrencyShown = z
    .object({
      limit: z.number().int(),
      queueLimit: z.number().int(),
      key: z.string().optional(),
      keyLimit: z.number().int().optional(),
    })
    .openapi("WorkflowConcurrency", { description });
  return { Concurrency, ConcurrencyShown };
});

/** The settings of `concurrency` whose strings are templates. */
export const CONCURRENCY_TEMPLATED: readonly string[] = ["key"];
