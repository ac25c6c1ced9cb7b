/**
 * A workflow's request log and capture (docs/webhooks.md#request-log, docs/webhooks.md#capture):
 * `/v1/manage/workflows/{id}/requests[/{requestId}]` and
 * `/v1/manage/workflows/{id}/nodes/{key}/capture|samples|test-runs` (docs/webhooks.md#test-runs).
 */
import { z } from "@hono/zod-openapi";
import { audited } from "../../audit";
import type { MemberEnv } from "../../auth";
import { writerWithJson } from "../../auth";
import { database } from "../../db/database";
import { createRouter } from "../../platform/app";
import {
  answers,
  IdParamSchema,
  jsonRequest,
  NoQuerySchema,
  operations,
  pathParam,
} from "../../platform/openapi";
import { appUrl } from "../../platform/origins";
import { assertWorkflow } from "../definitions/workflows";
import {
  armCapture,
  getRequest,
  listRequests,
  listSamples,
  requestLogAge,
  startTestRun,
} from "./request-log";
import { REQUEST_ID, requestSchemas } from "./schemas";

const op = operations("Workflows", "memberToken");

/**
 * A workflow's request log, capture and samples: a router built by the full app on first use,
 * never at start-up (src/routes.ts).
 */
export function requestsRouter() {
  const {
    CaptureInputSchema,
    CaptureSchema,
    LoggedRequestDetailSchema,
    NodeKeyParamsSchema,
    RequestListQuerySchema,
    RequestListSchema,
    SampleListSchema,
    SampleListQuerySchema,
    TestRunInputSchema,
    TestRunSchema,
  } = requestSchemas();
  const router = createRouter<MemberEnv>();

  router.openapi(
    {
      ...op(
        "get",
        "/v1/manage/workflows/{id}/requests",
        "listRequests",
        "List the calls to the workflow's webhook URLs, refusals included, newest first",
      ),
      description:
        "Kept the workspace's requestLogDays (7 by default) or the newest 1,000 calls, whichever is less, per runner of a workflow spread over several (docs/webhooks.md#request-log).",
      request: { params: IdParamSchema, query: RequestListQuerySchema },
      responses: answers(200, RequestListSchema, "Logged calls", "not_found"),
    },
    async (c) => {
      const { id } = c.req.valid("param");
      const { workspaceId } = c.get("member");
      const { shardsEver } = await assertWorkflow(database(c.env), workspaceId, id);
      const maxAgeMs = await requestLogAge(c.env, workspaceId);
      return c.json(await listRequests(c.env, id, shardsEver, c.req.valid("query"), maxAgeMs), 200);
    },
  );

  router.openapi(
    {
      ...op(
        "get",
        "/v1/manage/workflows/{id}/requests/{requestId}",
        "getRequest",
        "Read one logged call with its whole body",
      ),
      request: {
        params: IdParamSchema.extend({
          requestId: pathParam("requestId", z.string().regex(REQUEST_ID)),
        }),
        query: NoQuerySchema,
      },
      responses: answers(200, LoggedRequestDetailSchema, "The call", "not_found"),
    },
    async (c) => {
      const { id, requestId } = c.req.valid("param");
      const { workspaceId } = c.get("member");
      const { shardsEver } = await assertWorkflow(database(c.env), workspaceId, id);
      const maxAgeMs = await requestLogAge(c.env, workspaceId);
      return c.json(await getRequest(c.env, id, shardsEver, requestId, maxAgeMs), 200);
    },
  );

  router.openapi(
    audited(
      "workflow.capture_armed",
      { target: ["workflow", "param:id"] },
      {
        ...op(
          "post",
          "/v1/manage/workflows/{id}/nodes/{key}/capture",
          "captureNodeSample",
          "Arm capture on a webhook node's test URL",
        ),
        description:
          "Calls to `{APP_URL}/webhook-test/<workspace>/<workflow>/<node>` are stored as samples and answered 200 `{captured: true}`, even while the workflow is stopped, for the next `count` calls within `ttlSeconds`; otherwise that URL answers 404. Nothing runs unless `run` is true: then each captured call also starts a test execution of the saved definition (`mode: test`) and is answered `{captured: true, executionId}`. Arming again replaces the earlier arming (docs/webhooks.md#capture, docs/webhooks.md#test-runs).",
        middleware: writerWithJson(4_096),
        request: { params: NodeKeyParamsSchema, body: jsonRequest(CaptureInputSchema) },
        responses: answers(201, CaptureSchema, "Armed", "not_found"),
      },
    ),
    async (c) => {
      const { id, key } = c.req.valid("param");
      const { workspaceId } = c.get("member");
      const settings = c.req.valid("json");
      const armed = await armCapture(
        c.env,
        workspaceId,
        id,
        key,
        settings,
        appUrl(c.env, c.req.url),
      );
      return c.json(armed, 201);
    },
  );

  router.openapi(
    {
      ...op(
        "get",
        "/v1/manage/workflows/{id}/nodes/{key}/samples",
        "listNodeSamples",
        "List a webhook node's captured samples, newest first (at most 20, 7 days)",
      ),
      request: { params: NodeKeyParamsSchema, query: SampleListQuerySchema },
      responses: answers(200, SampleListSchema, "Samples", "not_found"),
    },
    async (c) => {
      const { id, key } = c.req.valid("param");
      await assertWorkflow(database(c.env), c.get("member").workspaceId, id);
      return c.json(await listSamples(c.env, id, key, c.req.valid("query")), 200);
    },
  );

  router.openapi(
    audited(
      "workflow.test_run",
      { target: ["workflow", "param:id"] },
      {
        ...op(
          "post",
          "/v1/manage/workflows/{id}/nodes/{key}/test-runs",
          "startTestRun",
          "Run the saved workflow from a webhook node with a captured sample, as a test",
        ),
        description:
          "Starts an execution of the saved definition with the sample `sampleId` (default: the node's newest), or the trigger input of `executionId` (an execution that started at this node), as the node's output, whether the workflow is running or stopped. It is marked `mode: test`: listed with the executions (`?mode=test`), left out of the metrics, not rate limited nor written to the request log. Answers once it is recorded; read it with getExecution (docs/webhooks.md#test-runs).",
        middleware: writerWithJson(4_096, { optional: true }),
        request: {
          params: NodeKeyParamsSchema,
          body: jsonRequest(TestRunInputSchema, { optional: true }),
        },
        responses: answers(
          202,
          TestRunSchema,
          "Started (or queued behind the concurrency limit)",
          "not_found",
          "replay_unavailable",
          "queue_full",
        ),
      },
    ),
    async (c) => {
      const { id, key } = c.req.valid("param");
      const { workspaceId } = c.get("member");
      const { shardsEver } = await assertWorkflow(database(c.env), workspaceId, id);
      const from = c.req.valid("json");
      return c.json(await startTestRun(c.env, id, shardsEver, key, from), 202);
    },
  );

  return router;
}
