/**
 * A workflow's request log and captured samples, read from its runner (docs/webhooks.md#request-log,
 * docs/webhooks.md#capture): times as ISO strings. The caller has checked the workflow belongs to
 * the workspace.
 */
import type { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { database } from "../../db/database";
import { DAY_MS, retentionOf } from "../../db/retention";
import { workspaces } from "../../db/schema";
import { decodeKeyCursor, encodeKeyCursor } from "../../platform/cursor";
import type { AppBindings } from "../../platform/env";
import { notFound } from "../../platform/errors";
import { isoTime } from "../../platform/ids";
import type { Page, PageQuery } from "../../platform/paging";
import { getWorkflow, webhookTestUrl } from "../definitions/workflows";
import { replayExecution } from "../executions/executions";
import { queueFull } from "../executions/queue-full";
import { runnerIfEver, workflowRunner } from "../runner/client";
import { listRequestsMerged } from "../runner/merged-lists";
import type { LoggedRequest } from "../runner/request-log-entry";
import { shardOfId } from "../runner/shards";
import { REQUEST_ID, type RequestSchemas, SAMPLE_ID } from "./schemas";

type Env = Pick<AppBindings, "WORKFLOW_RUNNER">;

function toView(entry: LoggedRequest): z.infer<RequestSchemas["LoggedRequestSchema"]> {
  return { ...entry, receivedAt: isoTime(entry.receivedAt) };
}

/**
 * A page of the request log, newest first, merged over the `shardsEver` runner shards that may
 * hold entries; `cursor` is the `nextCursor` of the page before.
 */
export async function listRequests(
  env: Env,
  workflowId: string,
  shardsEver: number,
  query: { limit: number; outcome?: string; cursor?: string },
  maxAgeMs?: number,
) {
  const before = query.cursor === undefined ? undefined : decodeKeyCursor(query.cursor, REQUEST_ID);
  const page = await listRequestsMerged(env, workflowId, shardsEver, query.limit, {
    ...(query.outcome ? { outcome: query.outcome } : {}),
    ...(before ? { before } : {}),
    ...(maxAgeMs ? { maxAgeMs } : {}),
  });
  const last = page.data.at(-1);
  return {
    data: page.data.map(toView),
    hasMore: page.hasMore,
    nextCursor: page.hasMore && last ? encodeKeyCursor(last.id) : null,
  };
}

/** One logged call with its whole body, from the shard its id names. @throws 404 not_found */
export async function getRequest(
  env: Env,
  workflowId: string,
  shardsEver: number,
  requestId: string,
  maxAgeMs?: number,
): Promise<z.infer<RequestSchemas["LoggedRequestDetailSchema"]>> {
  const runner = runnerIfEver(env, workflowId, shardsEver, shardOfId(requestId));
  const entry = runner ? await runner.getRequest(requestId, maxAgeMs) : null;
  if (!entry) {
    throw notFound("No such request in this workflow's log (kept as long as its workspace says).");
  }
  return { ...entry, receivedAt: isoTime(entry.receivedAt) };
}

const noSuchNode = () => notFound("The workflow has no webhook node with this key.");

/**
 * Arms capture on a webhook node's test URL for its next `count` calls within `ttlSeconds`.
 * @throws 404 not_found for an unknown workflow or node
 */
export async function armCapture(
  env: AppBindings,
  workspaceId: string,
  workflowId: string,
  nodeKey: string,
  settings: { count: number; ttlSeconds: number; run: boolean },
  appUrl: string,
): Promise<z.infer<RequestSchemas["CaptureSchema"]>> {
  const workflow = await getWorkflow(database(env), workspaceId, workflowId, appUrl);
  const url = workflow.webhookUrls[nodeKey];
  if (!url) throw noSuchNode();
  const runner = workflowRunner(env, workflowId);
  const { count, ttlSeconds, run } = settings;
  const arming = await runner.armCapture(workflowId, nodeKey, count, ttlSeconds, run);
  if (!arming) throw noSuchNode();
  return {
    nodeKey,
    testUrl: webhookTestUrl(url, appUrl),
    remaining: arming.remaining,
    expiresAt: isoTime(arming.expiresAt),
    run: arming.run,
  };
}

/**
 * Starts a test execution of the saved definition from a webhook node with one of its captured
 * samples (`sampleId`, default the newest) or the trigger input of an execution that started there
 * (`executionId`), running or stopped (docs/webhooks.md#test-runs).
 * @returns the execution's id, and the sample's or the execution's whose input it runs
 * @throws 404 not_found (no such node, sample or execution), 409 replay_unavailable, 429 queue_full
 */
export async function startTestRun(
  env: Env,
  workflowId: string,
  shardsEver: number,
  nodeKey: string,
  from: { sampleId?: string | undefined; executionId?: string | undefined },
): Promise<{ executionId: string; sampleId: string | null; replayOf: string | null }> {
  if (from.executionId)
    return await testRunOfExecution(env, workflowId, shardsEver, nodeKey, from.executionId);
  const { sampleId } = from;
  const result = await workflowRunner(env, workflowId).testRun(workflowId, nodeKey, sampleId);
  if (result.ok)
    return { executionId: result.executionId, sampleId: result.sampleId, replayOf: null };
  if (result.reason === "node_not_found") throw noSuchNode();
  if (result.reason === "queue_full") throw queueFull();
  throw notFound(
    sampleId === undefined
      ? "The node has no captured sample yet: arm capture and call its test URL."
      : "The node has no such sample (the newest 20 are kept, for 7 days).",
  );
}

/**
 * A test run with the trigger input of an execution that started at `nodeKey`: a replay on the
 * current definition, as a test.
 */
async function testRunOfExecution(
  env: Env,
  workflowId: string,
  shardsEver: number,
  nodeKey: string,
  executionId: string,
) {
  const runner = runnerIfEver(env, workflowId, shardsEver, shardOfId(executionId));
  const record = runner ? await runner.getExecution(executionId) : null;
  if (!record || record.trigger.key !== nodeKey) {
    throw notFound("No execution of this workflow started at this node with this id.");
  }
  const run = await replayExecution(env, workflowId, shardsEver, executionId, "current", "test");
  return { executionId: run.id, sampleId: null, replayOf: executionId };
}

/**
 * A page of a webhook node's captured samples (at most `CAPTURE.keptPerNode` are kept), newest
 * first: a sample's id (`smp_<n>`) grows with its capture.
 * @throws 404 not_found, 400 invalid_request for a cursor not given out
 */
export async function listSamples(
  env: Env,
  workflowId: string,
  nodeKey: string,
  query: PageQuery,
): Promise<Page<z.infer<RequestSchemas["SampleListSchema"]>["data"][number]>> {
  const samples = await workflowRunner(env, workflowId).samples(workflowId, nodeKey);
  if (!samples) throw noSuchNode();
  const seq = (id: string) => Number(id.slice("smp_".length));
  const after = query.cursor === undefined ? undefined : decodeKeyCursor(query.cursor, SAMPLE_ID);
  const rest = after === undefined ? samples : samples.filter((s) => seq(s.id) < seq(after));
  const page = rest.slice(0, query.limit);
  const last = page.at(-1);
  const hasMore = rest.length > query.limit;
  return {
    data: page.map((sample) => ({ ...sample, capturedAt: isoTime(sample.capturedAt) })),
    hasMore,
    nextCursor: hasMore && last ? encodeKeyCursor(last.id) : null,
  };
}

/** How long the workspace's request log entries are shown (ms): its `requestLogDays`. */
export async function requestLogAge(env: AppBindings, workspaceId: string): Promise<number> {
  const row = await database(env)
    .select({ retention: workspaces.retention })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .get();
  return retentionOf(row?.retention).requestLogDays * DAY_MS;
}
