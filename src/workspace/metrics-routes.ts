/**
 * `GET /v1/manage/metrics?from=&to=&step=hour|day` (docs/operations.md#metrics): the workspace's
 * series, a point per hour or day. Any member reads their own workspace's; never a widget key
 * (refused on every management route).
 */
import { z } from "@hono/zod-openapi";
import type { MemberEnv } from "../auth";
import { createRouter } from "../platform/app";
import { answers, operations } from "../platform/openapi";
import { REQUEST_OUTCOMES } from "../workflows";
import { METRICS_LIMITS, metricsWindow, workspaceMetrics } from "./metrics";

const op = operations("Workspace", "memberToken");

/** The metrics route: a router built by the full app on first use, never at start-up (src/routes.ts). */
export function metricsRouter() {
  const count = (description: string) => z.number().int().openapi({ description });
  const ms = (description: string) => z.number().int().nullable().openapi({ description });
  const CallStatsSchema = z
    .object({
      calls: count("Calls answered"),
      p50Ms: ms("Median answer time (ms, within 9 %); null without calls"),
      p99Ms: ms("99th percentile answer time (ms, within 9 %); null without calls"),
    })
    .openapi("CallStats");
  const ValuesSchema = z.object({
    links: z.object({
      created: count("Links created"),
      opened: count("Links opened (each opening starts its conversation)"),
    }),
    conversations: z.object({
      started: count("Conversations started: the links opened"),
      ended: count("Conversations ended (by the person, the agent or idleness)"),
    }),
    executions: z.object({
      succeeded: count("Executions that finished successfully"),
      failed: count("Executions that failed"),
    }),
    webhooks: CallStatsSchema.extend({
      outcomes: z
        .partialRecord(z.enum(REQUEST_OUTCOMES), CallStatsSchema)
        .openapi({ description: "By the request log's outcome; only outcomes that happened" }),
    }),
    deliveries: z.object({
      succeeded: count("Event delivery attempts answered 2xx"),
      failed: count("Event delivery attempts that failed (any other status, timeout, network)"),
    }),
  });
  const MetricValuesSchema = ValuesSchema.openapi("MetricValues");
  const MetricsSchema = z
    .object({
      from: z.string(),
      to: z.string(),
      step: z.enum(["hour", "day"]),
      points: z
        .array(
          ValuesSchema.extend({ at: z.string().openapi({ description: "Start of the step" }) }),
        )
        .openapi({ description: "One per step of [from, to), oldest first" }),
      totals: MetricValuesSchema,
    })
    .openapi("Metrics");
  const QuerySchema = z.strictObject({
    from: z.iso.datetime({ offset: true }).optional().openapi({
      description: "Rounded down to the step; default: `to` less 24 hours (hour) or 30 days (day)",
    }),
    to: z.iso
      .datetime({ offset: true })
      .optional()
      .openapi({ description: "Rounded up to the step; default: now" }),
    step: z.enum(["hour", "day"]).optional().openapi({ description: "Default: hour" }),
  });

  const router = createRouter<MemberEnv>();
  router.openapi(
    {
      ...op(
        "get",
        "/v1/manage/metrics",
        "getMetrics",
        "The workspace's metrics, a point per hour or day",
      ),
      description: `At most ${METRICS_LIMITS.maxPoints} points and 400 days (hours are kept 400 days); ratings are not counted yet. See docs/operations.md#metrics.`,
      request: { query: QuerySchema },
      responses: answers(200, MetricsSchema, "The series"),
    },
    async (c) => {
      const window = metricsWindow(c.req.valid("query"));
      return c.json(await workspaceMetrics(c.env, c.get("member").workspaceId, window), 200);
    },
  );
  return router;
}
