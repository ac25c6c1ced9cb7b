/** The request log's and capture's schemas (docs/webhooks.md#request-log, docs/webhooks.md#capture). */
import { z } from "@hono/zod-openapi";
import { once } from "../../platform/once";
import { IdParamSchema, pathParam } from "../../platform/openapi";
import { listQuery, pageSchema } from "../../platform/paging";
import { KEY_PATTERN } from "../nodes/common";
import { CAPTURE } from "../runner/capture-store";
import { REQUEST_OUTCOMES } from "../runner/request-log-entry";

/**
 * An entry id, what `nextCursor` and `{requestId}` take: `whr_`, 18 digits and 6 base62
 * characters, and `-<k>` when runner shard k > 0 keeps it (docs/scaling.md#runner-shards).
 */
export const REQUEST_ID = /^whr_\d{18}[A-Za-z0-9]{6}(?:-[1-9]\d?)?$/;

/** A captured sample's id (`smp_<n>`), what a sample list's cursor and a test run name. */
export const SAMPLE_ID = /^smp_\d{1,15}$/;

/**
 * The request log's and capture's schemas, built on first use: in the Worker only the management
 * API needs them, and it is built on its first request (src/routes.ts).
 */
export const requestSchemas = once(() => {
  const LoggedRequestSchema = z
    .object({
      id: z.string(),
      requestId: z.string().openapi({ description: "The call's `x-request-id`" }),
      receivedAt: z.string(),
      nodeKey: z.string(),
      method: z.string(),
      status: z
        .number()
        .int()
        .openapi({ description: "The HTTP status the call was answered with" }),
      outcome: z.enum(REQUEST_OUTCOMES),
      executionId: z.string().nullable(),
      latencyMs: z.number().int(),
      size: z.number().int().openapi({ description: "The body's size in bytes" }),
      headers: z.record(z.string(), z.string()).openapi({
        description: "Values of credential, cookie and signature headers are `[redacted]`",
      }),
      bodyPreview: z.string().openapi({ description: "The body's first 2 KiB as text" }),
      reason: z.string().nullable().openapi({
        description:
          "Why a call was refused; null for calls not refused so. For invalid_signature: no_secret, missing_header, bad_signature or stale_timestamp, kept from the caller (its answer says only that the signature did not verify). For invalid_body and payload_too_large: the sentence the caller's answer gave as its `message`",
      }),
      verifiedWith: z.string().optional().openapi({
        description:
          "The name of the workspace secret that verified the call's signature (docs/webhooks.md#rotation); never its value",
      }),
    })
    .openapi("LoggedRequest");

  const LoggedRequestDetailSchema = LoggedRequestSchema.extend({
    body: z.string().nullable().openapi({ description: "The whole body; null when never read" }),
    bodyEncoding: z.enum(["utf8", "base64"]),
  }).openapi("LoggedRequestDetail");

  const RequestListQuerySchema = listQuery({ outcome: z.enum(REQUEST_OUTCOMES).optional() });

  const RequestListSchema = pageSchema("LoggedRequestList", LoggedRequestSchema);

  const NodeKeyParamsSchema = IdParamSchema.extend({
    key: pathParam("key", z.string().regex(KEY_PATTERN)),
  });

  const CaptureInputSchema = z
    .strictObject({
      count: z.number().int().min(1).max(CAPTURE.maxCount).default(CAPTURE.defaultCount),
      ttlSeconds: z
        .number()
        .int()
        .min(1)
        .max(CAPTURE.maxTtlSeconds)
        .default(CAPTURE.defaultTtlSeconds),
      run: z.boolean().default(false).openapi({
        description:
          "Each captured call also starts a test execution of the saved definition, even while the workflow is stopped (docs/webhooks.md#test-runs)",
      }),
    })
    .openapi("CaptureInput");

  const CaptureSchema = z
    .object({
      nodeKey: z.string(),
      testUrl: z.string().openapi({ description: "Calls to it are captured while armed" }),
      remaining: z.number().int(),
      expiresAt: z.string(),
      run: z.boolean().openapi({ description: "Captured calls also start a test execution" }),
    })
    .openapi("Capture");

  const SampleListSchema = pageSchema(
    "SampleList",
    z
      .object({
        id: z.string(),
        capturedAt: z.string(),
        output: z.unknown().openapi({
          description:
            "The node's output as a template sees it: body, headers, queryParams, method",
        }),
      })
      .openapi("Sample"),
  );
  const SampleListQuerySchema = listQuery();

  const TestRunInputSchema = z
    .strictObject({
      sampleId: z.string().regex(SAMPLE_ID).optional().openapi({
        description: "The captured sample to run with (`smp_…`); absent, the node's newest",
      }),
      executionId: z.string().min(1).max(64).optional().openapi({
        description:
          "Instead of a sample: an execution that started at this node, whose trigger input is run again",
      }),
    })
    .refine((input) => !(input.sampleId && input.executionId), {
      message: "Give sampleId or executionId, not both.",
      path: ["executionId"],
    })
    .openapi("TestRunInput");
  const TestRunSchema = z
    .object({
      executionId: z.string().openapi({ description: "The test execution, `mode: test`" }),
      sampleId: z.string().nullable().openapi({ description: "The sample it runs with" }),
      replayOf: z.string().nullable().openapi({ description: "The execution whose input it runs" }),
    })
    .openapi("TestRun");

  return {
    LoggedRequestSchema,
    LoggedRequestDetailSchema,
    RequestListQuerySchema,
    RequestListSchema,
    NodeKeyParamsSchema,
    CaptureInputSchema,
    CaptureSchema,
    SampleListSchema,
    SampleListQuerySchema,
    TestRunInputSchema,
    TestRunSchema,
  };
});

/** The types of the schemas `requestSchemas` builds, by name. */
export type RequestSchemas = ReturnType<typeof requestSchemas>;
