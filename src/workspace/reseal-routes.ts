/**
 * The operator's reseal job (docs/security.md#rotating-keys): `POST /v1/operator/reseal` starts it
 * in the background, `GET /v1/operator/reseal/{id}` tells how far it got. Operator token only.
 */
import { z } from "@hono/zod-openapi";
import { audited } from "../audit";
import { requireOperator } from "../auth";
import { createRouter } from "../platform/app";
import { notFound } from "../platform/errors";
import { isoTime, isoTimeOrNull, newId } from "../platform/ids";
import { answers, IdParamSchema, NoQuerySchema, operations } from "../platform/openapi";
import { maintenanceJob } from "./jobs/client";
import type { JobView } from "./jobs/contract";

const op = operations("Operator", "operatorToken");
/** The name of the one MaintenanceJob object that runs every reseal. */
const RESEAL = "reseal";

/** The job as the API shows it: times in ISO 8601. */
function shown(job: JobView) {
  return {
    id: job.id,
    status: job.status,
    counts: job.counts,
    error: job.error,
    createdAt: isoTime(job.createdAt),
    completedAt: isoTimeOrNull(job.completedAt),
  };
}

/** The reseal routes: a router built by the full app on first use (src/routes.ts). */
export function resealRouter() {
  const ResealJobSchema = z
    .object({
      id: z.string().openapi({ example: "rsl_3T7mJbQ2xV9kLp4sW8nZ1c" }),
      status: z.enum(["running", "succeeded", "failed"]),
      counts: z.record(z.string(), z.number().int()).openapi({
        description:
          "Values sealed again under the current key so far: `secrets`, `endpointSecrets`, `idempotentAnswers`, `executions` (running states), `keptInputs`",
      }),
      error: z.string().nullable().openapi({ description: "Why a failed job stopped" }),
      createdAt: z.string(),
      completedAt: z.string().nullable(),
    })
    .openapi("ResealJob");
  const router = createRouter();
  router.use("/v1/operator/reseal", requireOperator);
  router.use("/v1/operator/reseal/*", requireOperator);

  router.openapi(
    audited(
      "reseal.started",
      { target: ["reseal", "response:id"] },
      {
        ...op(
          "post",
          "/v1/operator/reseal",
          "startReseal",
          "Seal every stored value again under the current SECRETS_KEY, in the background (while one runs, that one is returned)",
        ),
        request: { query: NoQuerySchema },
        responses: answers(202, ResealJobSchema, "Started; poll it with its id"),
      },
    ),
    async (c) => {
      // One object for every reseal: asked while one runs, it answers with that one.
      const job = await maintenanceJob(c.env, RESEAL).start(newId("rsl"), "reseal");
      return c.json(shown(job), 202);
    },
  );

  router.openapi(
    {
      ...op("get", "/v1/operator/reseal/{id}", "getReseal", "How far a reseal job got"),
      request: { params: IdParamSchema, query: NoQuerySchema },
      responses: answers(200, ResealJobSchema, "The job", "not_found"),
    },
    async (c) => {
      const { id } = c.req.valid("param");
      const job = /^rsl_[0-9A-Za-z]{22}$/.test(id)
        ? await maintenanceJob(c.env, RESEAL).view(id)
        : null;
      if (job?.kind !== "reseal") throw notFound("No such reseal job.");
      return c.json(shown(job), 200);
    },
  );

  return router;
}
