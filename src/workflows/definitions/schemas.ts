/** Workflow and execution schemas (docs/api/manage.md, docs/api/webhooks.md). */
import { z } from "@hono/zod-openapi";
import { once } from "../../platform/once";
import { listQuery, pageSchema } from "../../platform/paging";
import { concurrencySchemas } from "../nodes/concurrency";
import { WORKFLOW_NODE } from "../nodes/models";
import { ACTION_ERROR_CODES } from "../nodes/types";
import { MAX_NOTES, noteSchema } from "./notes";

/**
 * The workflow and execution schemas, built on first use: in the Worker only the management API
 * needs them, and it is built on its first request (src/routes.ts).
 */
export const workflowSchemas = once(() => {
  const Slug = z
    .string()
    .regex(
      /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/,
      "Lower-case letters, digits and inner hyphens, up to 63.",
    );

  /**
   * A node, as request bodies take it and responses show it. Any object passes here, so that
   * `parseDefinition` gets to list every problem with the workflow codes (docs/errors.md), and so
   * that responses return the stored nodes as they are (the union's TypeScript type is not the
   * engine's); the document shows the WorkflowNode union (nodes/models.ts) instead. Given a `type`, zod-to-openapi writes this metadata in place of the
   * schema it would generate: an object that is a WorkflowNode. (`oneOf` of one rather than a bare
   * `$ref`, which its metadata type does not allow; not `allOf`, which openapi-typescript mistypes
   * beside a discriminator.)
   */
  const Node = z.record(z.string(), z.unknown()).openapi({
    type: "object",
    oneOf: [{ $ref: `#/components/schemas/${WORKFLOW_NODE}` }],
  });
  const ConnectionInput = z.record(z.string(), z.unknown()).openapi("WorkflowConnection", {
    description:
      '`{from, to, branch?}`: `branch` ("true"|"false") on connections from a condition, ("answered"|"timeout") from an ask_person, on no others',
    example: { from: "webhook_1", to: "check" },
  });

  const { Concurrency, ConcurrencyShown } = concurrencySchemas();

  const Note = noteSchema();

  /**
   * Body of create and replace. Only the envelope is checked here; the definition itself is checked
   * by `parseDefinition`, which lists every problem at once.
   */
  const WorkflowInputSchema = z
    .strictObject({
      name: z.string().trim().min(1).max(200),
      slug: Slug,
      nodes: z.array(Node).max(100),
      connections: z.array(ConnectionInput).max(500).default([]),
      concurrency: Concurrency.nullable().optional(),
      notes: z.array(Note).max(MAX_NOTES).default([]).openapi({
        description: "Sticky notes on the canvas, at most 100, keys unique; runs never see them",
      }),
    })
    .openapi("WorkflowInput");

  const WorkflowSchema = z
    .object({
      id: z.string(),
      name: z.string(),
      slug: z.string(),
      status: z.enum(["running", "stopped"]),
      nodes: z.array(Node).openapi({
        description: "The nodes with every default filled in and every key given",
      }),
      connections: z.array(z.record(z.string(), z.unknown())),
      concurrency: ConcurrencyShown.nullable(),
      notes: z.array(Note).openapi({ description: "Sticky notes on the canvas, as saved" }),
      webhookUrls: z.record(z.string(), z.string()).openapi({
        description: "Each webhook node's full URL, by node key",
      }),
      webhookTestUrls: z.record(z.string(), z.string()).openapi({
        description:
          "Each webhook node's test URL, by node key: taken while capture is armed (docs/webhooks.md#capture)",
      }),
      createdAt: z.string(),
      updatedAt: z.string(),
    })
    .openapi("Workflow");

  const NodeRunSchema = z
    .object({
      key: z.string(),
      type: z.string(),
      status: z.enum(["running", "waiting", "succeeded", "failed"]),
      output: z.unknown().optional(),
      error: z.string().optional(),
      errorCode: z
        .enum(["destination_not_allowed", ...ACTION_ERROR_CODES])
        .optional()
        .openapi({
          description:
            "Why a failed node was refused: `destination_not_allowed`, the outbound policy refused the URL or a redirect's target (docs/security.md#outbound-requests); the others, the API's code for a person node's refused action (docs/workflows.md#errors)",
        }),
      errorDetails: z.array(z.unknown()).optional().openapi({
        description:
          "With `errorCode`, the refusal's details as the API gives them (docs/workflows.md#errors)",
      }),
      attempts: z
        .array(
          z.object({
            at: z.string(),
            status: z.number().int().nullable(),
            error: z.string().optional(),
          }),
        )
        .optional()
        .openapi({
          description:
            "http_request with retry: each attempt that did not succeed (status null: no answer)",
        }),
      answered: z.literal(true).optional().openapi({
        description:
          "The respond node whose output answered the responseNode call: the first one reached (docs/webhooks.md#respond-node)",
      }),
      startedAt: z.string(),
      finishedAt: z.string().nullable(),
    })
    .openapi("NodeRun");

  const ExecutionMode = z.enum(["production", "test"]).openapi("ExecutionMode", {
    description:
      "`production`: started by the workflow's own triggers or a replay; `test`: a builder's test run, from a test URL armed with `run` or a captured sample, left out of the metrics (docs/webhooks.md#test-runs)",
  });

  const ExecutionSchema = z
    .object({
      id: z.string(),
      workflowId: z.string(),
      status: z.enum(["queued", "running", "succeeded", "failed"]),
      trigger: z.object({ key: z.string(), type: z.string() }),
      nodes: z.array(NodeRunSchema),
      startedAt: z.string(),
      finishedAt: z.string().nullable(),
      replayOf: z
        .string()
        .nullable()
        .openapi({ description: "The execution this one replays (docs/webhooks.md#replay)" }),
      queuedAt: z.string().nullable().openapi({
        description:
          "When it was queued behind the workflow's concurrency limit; its wait is startedAt - queuedAt (docs/webhooks.md#concurrency)",
      }),
      mode: ExecutionMode,
    })
    .openapi("Execution", { description: "Secret values are redacted as `[redacted]`" });

  const ExecutionListQuerySchema = listQuery({
    mode: ExecutionMode.optional().openapi({
      param: { name: "mode", in: "query" },
      description: "Only executions of this mode (default: both)",
    }),
  });

  const ReplayDefinition = z.enum(["original", "current"]).default("original").openapi({
    description:
      "`original`: the definition the execution ran on; `current`: the workflow's definition now",
  });

  const ReplayInputSchema = z.strictObject({ definition: ReplayDefinition }).openapi("ReplayInput");

  const BulkReplayInputSchema = z
    .strictObject({
      status: z.literal("failed"),
      since: z.iso.datetime({ offset: true }),
      until: z.iso.datetime({ offset: true }).optional(),
      definition: ReplayDefinition,
    })
    .openapi("BulkReplayInput");

  const BulkReplaySchema = z
    .object({ count: z.number().int().openapi({ description: "Replays queued (at most 1,000)" }) })
    .openapi("BulkReplay");

  const ExecutionListSchema = pageSchema("ExecutionList", ExecutionSchema);

  return {
    WorkflowInputSchema,
    WorkflowSchema,
    NodeRunSchema,
    ExecutionSchema,
    ExecutionListQuerySchema,
    ReplayInputSchema,
    BulkReplayInputSchema,
    BulkReplaySchema,
    ExecutionListSchema,
  };
});

/** The types of the schemas `workflowSchemas` builds, by name. */
export type WorkflowSchemas = ReturnType<typeof workflowSchemas>;

export type WorkflowInput = z.infer<WorkflowSchemas["WorkflowInputSchema"]>;

export type ExecutionView = z.infer<WorkflowSchemas["ExecutionSchema"]>;
