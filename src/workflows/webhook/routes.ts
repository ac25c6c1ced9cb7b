/**
 * The webhook receiver: `{APP_URL}/webhooks/<workspace>/<workflow>/<node key>`, any method, no
 * credentials (docs/api/webhooks.md#urls). Errors use the API's one envelope.
 */
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { ContentfulStatusCode, StatusCode } from "hono/utils/http-status";
import { database } from "../../db/database";
import { createRouter } from "../../platform/app";
import { readCredential } from "../../platform/bearer";
import { ApiError } from "../../platform/errors";
import { answers, errorResponses, jsonResponse } from "../../platform/openapi";
import { workflowShards } from "../definitions/lookups";
import { runnerIfEver } from "../runner/client";
import { runnerOfToken } from "../runner/result-tokens";
import { SANDBOX_HEADER, webhookAnswer, workflowFailed } from "./answer";
import { encodeReply } from "./http-answer";
import { captureWebhook, receiveWebhook, type WebhookTarget } from "./receive";
import { refused } from "./refusals";

export const webhooksRouter = createRouter();

const sandboxed = createMiddleware(async (c, next) => {
  await next();
  c.res.headers.set(SANDBOX_HEADER.name, SANDBOX_HEADER.value);
});
webhooksRouter.use("/webhooks/*", sandboxed);
webhooksRouter.use("/webhook-test/*", sandboxed);

/** A node's own reply (an immediate webhook's, a respond node's), as `encodeReply` makes it. */
function replyWith(
  c: Context,
  { status, headers, body }: ReturnType<typeof encodeReply>,
): Response {
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  return body === null
    ? c.body(null, status as StatusCode)
    : c.body(body, status as ContentfulStatusCode);
}

/** 401 invalid_key: no result token, or one that leads to no result (docs/webhooks.md#result-handles). */
const noResultToken = () =>
  new ApiError(
    401,
    "invalid_key",
    "Send the result token as `Authorization: Bearer <resultToken>`; this one is missing, unknown, altered or expired.",
    { headers: { "www-authenticate": 'Bearer realm="agent-edge"' } },
  );

// A result handle of a timed-out lastNode or responseNode call (docs/webhooks.md#result-handles):
// the URL names the execution; its token, the only credential, comes in a header (request logs
// keep URLs) and names its workflow and shard.
webhooksRouter.get("/webhooks/results/:executionId", async (c) => {
  const token = readCredential(c.req.raw.headers, false);
  const runner = token === null || token === "conflict" ? null : runnerOfToken(token);
  // Only a runner of a workflow that exists is reached: made-up ids create no objects.
  const shards = runner ? await workflowShards(database(c.env), runner.workflowId) : null;
  if (!runner || !shards || token === null) throw noResultToken();
  const holder = runnerIfEver(c.env, runner.workflowId, shards.shardsEver, runner.shard);
  const state = holder ? await holder.result(token) : null;
  if (!state) throw noResultToken();
  if (state.executionId !== c.req.param("executionId")) {
    throw new ApiError(404, "not_found", "This result token is for another execution.");
  }
  c.header("x-execution-id", state.executionId);
  switch (state.kind) {
    case "running":
      return c.json({ status: "running", executionId: state.executionId }, 202);
    case "succeeded":
      return c.json(state.output ?? null, 200);
    case "responded":
      return replyWith(c, encodeReply(state.reply));
    case "failed":
      throw workflowFailed(state.executionId, state.nodeKey);
  }
});

const targetOf = (c: Context): WebhookTarget => ({
  workspace: c.req.param("workspace") ?? "",
  workflow: c.req.param("workflow") ?? "",
  node: c.req.param("node") ?? "",
  requestId: c.get("requestId") ?? "",
});

// A test URL stores the call as a sample while capture is armed (docs/webhooks.md#capture), and
// with `run` starts a test execution too (docs/webhooks.md#test-runs).
webhooksRouter.all("/webhook-test/:workspace/:workflow/:node", async (c) => {
  const outcome = await captureWebhook(c.env, c.req.raw, targetOf(c));
  if (outcome.kind === "captured") {
    const { executionId } = outcome;
    if (executionId) c.header("x-execution-id", executionId);
    return c.json({ captured: true, ...(executionId ? { executionId } : {}) }, 200);
  }
  if (outcome.kind === "not_found") {
    throw new ApiError(404, "webhook_not_found", "No capture is armed for this test URL.");
  }
  throw refused(outcome);
});

webhooksRouter.all("/webhooks/:workspace/:workflow/:node", async (c) => {
  const received = await receiveWebhook(c.env, c.req.raw, targetOf(c));
  const answer = webhookAnswer(received, c.env, c.req.url);
  for (const [name, value] of Object.entries(answer.headers)) c.header(name, value);
  if ("error" in answer) throw answer.error;
  if ("reply" in answer) return replyWith(c, answer.reply);
  return c.json(answer.json, answer.status);
});

// Documented once in the OpenAPI document; the route itself takes every method.
webhooksRouter.openAPIRegistry.registerPath({
  method: "post",
  path: "/webhooks/{workspace}/{workflow}/{node}",
  operationId: "receiveWebhook",
  tags: ["Webhooks"],
  security: [],
  summary: "Webhook receiver (the node's httpMethod; no credentials)",
  description:
    "Starts an execution of a running workflow. `immediate`: 200 `{success, executionId}` at once, or the node's own reply. `lastNode`: 200 with the final node's output, 504 workflow_timeout (with `error.resultUrl`, `error.resultToken` and `Location`) or 500 workflow_failed (`error.executionId` names the execution; details carry it and the failing node). `responseNode`: the status, headers and body of the first respond node reached, as soon as it has run (the execution goes on; docs/webhooks.md#respond-node); without one, as lastNode. A Content-Encoding other than identity gets 415 unsupported_media_type. A node with `verify` refuses a call whose signature does not verify with 401 invalid_signature (docs/webhooks.md#signatures). With a handshake preset, a sender's handshake is answered as the sender asks, starting nothing, whatever the node's httpMethod; a refused one gets 403 handshake_refused (docs/webhooks.md#handshakes).",
  request: {
    params: z.object({ workspace: z.string(), workflow: z.string(), node: z.string() }),
    body: { content: { "application/json": { schema: z.unknown() } } },
  },
  responses: answers(
    200,
    z.unknown(),
    "`{success:true, executionId}`, the final node's output, or a reply of the node's or a respond node's own (any status, content type and headers)",
    "webhook_not_found",
    "method_not_allowed",
    "invalid_signature",
    "handshake_refused",
    "payload_too_large",
    "unsupported_media_type",
    "invalid_body",
    "rate_limited",
    "queue_full",
    "workflow_failed",
    "workflow_timeout",
  ),
});

webhooksRouter.openAPIRegistry.registerPath({
  method: "get",
  path: "/webhooks/results/{executionId}",
  operationId: "getWebhookResult",
  tags: ["Webhooks"],
  security: [{ resultToken: [] }],
  summary:
    "The result of a lastNode or responseNode call that timed out (its 504's resultUrl, with its resultToken; valid 24 h)",
  description:
    "202 `{status: \"running\", executionId}` while the execution runs; then the answer the call would have got: 200 with the final node's output, the respond node's reply (as soon as it has run), or 500 workflow_failed. The 504's `error.resultToken`, sent as `Authorization: Bearer <resultToken>`, is the only credential; it is never part of the URL, which request logs keep. Without it, or with one that is unknown, altered or expired: 401 invalid_key; with another execution's: 404 not_found.",
  request: { params: z.object({ executionId: z.string() }) },
  responses: {
    200: jsonResponse(
      z.unknown(),
      "The final node's output, or the respond node's reply (its own status)",
    ),
    202: jsonResponse(
      z.object({ status: z.literal("running"), executionId: z.string() }),
      "Still running",
    ),
    ...errorResponses("not_found", "workflow_failed"),
  },
});

webhooksRouter.openAPIRegistry.registerPath({
  method: "post",
  path: "/webhook-test/{workspace}/{workflow}/{node}",
  operationId: "receiveTestWebhook",
  tags: ["Webhooks"],
  security: [],
  summary: "A webhook node's test URL: captures the call as a sample while armed",
  description:
    "Only while capture is armed (`POST /v1/manage/workflows/{id}/nodes/{key}/capture`), even for a stopped workflow: the call is stored as a sample. Armed with `run`, it also starts a test execution of the saved definition, named by `executionId` and the `x-execution-id` header (429 queue_full when the workflow's queue is full; the sample is kept); otherwise nothing runs. Not armed: 404 webhook_not_found (docs/webhooks.md#capture, docs/webhooks.md#test-runs).",
  request: {
    params: z.object({ workspace: z.string(), workflow: z.string(), node: z.string() }),
    body: { content: { "application/json": { schema: z.unknown() } } },
  },
  responses: {
    200: {
      description: "Captured",
      content: {
        "application/json": {
          schema: z.object({
            captured: z.literal(true),
            executionId: z.string().optional().openapi({ description: "Its test run, if any" }),
          }),
        },
      },
    },
    ...errorResponses(
      "webhook_not_found",
      "method_not_allowed",
      "payload_too_large",
      "unsupported_media_type",
      "invalid_body",
      "queue_full",
    ),
  },
});
