/**
 * Test helpers for workflows spread over several runner shards (docs/scaling.md#runner-shards):
 * each shard's own records read through its RPC contract, and the management API's merged lists
 * paged to the end.
 */
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { shardObjectName } from "../../src/workflows/runner/shards";
import { call, expectJson, type Workspace } from "./api";

/** Shard `shard` of the workflow's runners. */
export function shardStub(workflowId: string, shard: number) {
  return env.WORKFLOW_RUNNER.get(
    env.WORKFLOW_RUNNER.idFromName(shardObjectName(workflowId, shard)),
  );
}

/** Every execution id one shard holds, read from that shard alone, newest first. */
export async function idsOnShard(workflowId: string, shard: number): Promise<string[]> {
  const ids: string[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await shardStub(workflowId, shard).listExecutions(100, after);
    ids.push(...page.data.map((record) => record.id));
    if (!page.hasMore) return ids;
    after = ids.at(-1);
  }
}

type Listed = { id: string; startedAt: string; queuedAt?: string | null };

/** Every page of the workflow's executions through the management API, `limit` at a time. */
export async function pagedExecutions(ws: Workspace, workflowId: string, limit: number) {
  const all: Listed[] = [];
  let pages = 0;
  let cursor: string | null = null;
  for (;;) {
    const query = `limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`;
    const page: { data: Listed[]; hasMore: boolean; nextCursor: string | null } = await expectJson(
      await call("GET", `/v1/manage/workflows/${workflowId}/executions?${query}`, {
        token: ws.ownerToken,
      }),
      200,
    );
    pages += 1;
    all.push(...page.data);
    expect(page.nextCursor === null).toBe(!page.hasMore);
    if (!page.hasMore) return { all, pages };
    cursor = page.nextCursor;
  }
}

/** Every page of the workflow's request log through the management API. */
export async function pagedRequests(ws: Workspace, workflowId: string, limit: number, filter = "") {
  const all: { id: string; outcome: string; executionId: string | null; status: number }[] = [];
  let cursor: string | null = null;
  for (;;) {
    const query = `limit=${limit}${filter}${cursor ? `&cursor=${cursor}` : ""}`;
    const page: { data: typeof all; nextCursor: string | null } = await expectJson(
      await call("GET", `/v1/manage/workflows/${workflowId}/requests?${query}`, {
        token: ws.ownerToken,
      }),
      200,
    );
    all.push(...page.data);
    cursor = page.nextCursor;
    if (cursor === null) return all;
  }
}
