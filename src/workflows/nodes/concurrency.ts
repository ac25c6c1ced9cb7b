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
    })
    .openapi("WorkflowConcurrencyInput", { description });
  /**
   * The same limits as a workflow shows them: `queueLimit` is always there (its default was filled
   * in on write), so the document lists it as required and the SDK's response type has it.
   */
  const ConcurrencyShown = z
    .object({ limit: z.number().int(), queueLimit: z.number().int() })
    .openapi("WorkflowConcurrency", { description });
  return { Concurrency, ConcurrencyShown };
});

/** The settings of `concurrency` whose strings are templates (none yet). */
export const CONCURRENCY_TEMPLATED: readonly string[] = [];
