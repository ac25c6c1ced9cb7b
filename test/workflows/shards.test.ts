/**
 * A hot workflow spread over several runner objects (docs/scaling.md#runner-shards): a webhook
 * node asking for more than one runner can take gets N = ceil(rate / capacity) runners; calls go
 * to one at random and each execution is recorded once, on the shard its id names; look-ups go
 * straight to it; lists merge the shards in one order and page on; a Worker whose shard count is
 * stale is corrected by the runners; a workflow at the default rate keeps its one runner as before.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";
import {
  RUNNER_CAPACITY_PER_MINUTE,
  shardCount,
  shardOfId,
} from "../../src/workflows/runner/shards";
import { call, expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import { idsOnShard, pagedExecutions, pagedRequests, shardStub } from "../helpers/shards";
import { createWorkflow, hook } from "../helpers/workflows";

/** A rate that asks for exactly `shards` runners. */
const rateFor = (shards: number) => (shards - 1) * RUNNER_CAPACITY_PER_MINUTE + 1;

const hot = (responseMode: string, rateLimitPerMinute = rateFor(4)) => ({
  nodes: [
    { type: "webhook", responseMode, rateLimitPerMinute },
    { key: "ok", type: "set", fields: { n: "{{webhook_1.body.n}}" } },
  ],
  connections: [{ from: "webhook_1", to: "ok" }],
});

let ws: Workspace;
beforeAll(async () => {
  ws = await seedWorkspace();
});

describe("shard count", () => {
  it("grows with the highest rate limit over the capacity, capped; concurrency keeps one", () => {
    const webhook = (rateLimitPerMinute: number) => ({
      key: "w",
      type: "webhook" as const,
      rateLimitPerMinute,
    });
    const count = (rates: number[], concurrency?: { limit: number; queueLimit: number }) =>
      shardCount({
        nodes: rates.map(webhook),
        connections: [],
        ...(concurrency ? { concurrency } : {}),
      } as never);
    expect(count([1_200])).toBe(1);
    expect(count([RUNNER_CAPACITY_PER_MINUTE])).toBe(1);
    expect(count([RUNNER_CAPACITY_PER_MINUTE + 1, 10])).toBe(2);
    expect(count([100, rateFor(4)])).toBe(4);
    expect(count([RUNNER_CAPACITY_PER_MINUTE * 100])).toBe(8);
    expect(count([rateFor(4)], { limit: 5, queueLimit: 10 })).toBe(1);
    expect(count([])).toBe(1);
  });
});

describe("a workflow with four runner shards", () => {
  it("runs a few hundred concurrent calls, each recorded once, over all four shards", async () => {
    const now = await createWorkflow(ws, hot("immediate"));
    const last = await createWorkflow(ws, hot("lastNode"));
    const answers = await Promise.all([
      ...Array.from({ length: 200 }, (_, n) =>
        hook(now.webhookUrls.webhook_1 as string, { body: { n } }),
      ),
      ...Array.from({ length: 100 }, (_, n) =>
        hook(last.webhookUrls.webhook_1 as string, { body: { n } }),
      ),
    ]);
    const immediate = await Promise.all(
      answers.slice(0, 200).map((r) => expectJson<{ executionId: string }>(r, 200)),
    );
    const held = await Promise.all(
      answers.slice(200).map((r) => expectJson<{ n: number }>(r, 200)),
    );
    // Each lastNode caller got its own run's output, from the shard that ran it.
    expect(held.map((body) => body.n).sort((a, b) => a - b)).toEqual([...Array(100).keys()]);

    for (const [flow, count, ids] of [
      [now, 200, immediate.map((body) => body.executionId)],
      [last, 100, answers.slice(200).map((r) => r.headers.get("x-execution-id") as string)],
    ] as const) {
      const perShard = await Promise.all([0, 1, 2, 3].map((shard) => idsOnShard(flow.id, shard)));
      const stored = perShard.flat();
      expect(stored).toHaveLength(count);
      expect(new Set(stored)).toEqual(new Set(ids));
      for (const [shard, onShard] of perShard.entries()) {
        expect(onShard.length).toBeGreaterThan(0);
        // Every id names the shard that holds it; shard 0's carry no mark, as before shards.
        for (const id of onShard) expect(shardOfId(id)).toBe(shard);
      }
      expect(await idsOnShard(flow.id, 4)).toEqual([]);
    }

    // Look-ups by id reach the shard that holds the record.
    for (const id of [...immediate.slice(0, 12).map((body) => body.executionId)]) {
      const record = await expectJson<{ id: string; status: string }>(
        await call("GET", `/v1/manage/workflows/${now.id}/executions/${id}`, {
          token: ws.ownerToken,
        }),
        200,
      );
      expect(record).toMatchObject({ id, status: "succeeded" });
    }
    // A made-up shard mark finds nothing (and creates no object).
    const bare = immediate[0]?.executionId.replace(/-\d+$/, "") ?? "";
    const missing = await call("GET", `/v1/manage/workflows/${now.id}/executions/${bare}-7`, {
      token: ws.ownerToken,
    });
    expect(missing.status).toBe(404);

    // The merged list pages through every execution once, newest first, with the cursor.
    const { all, pages } = await pagedExecutions(ws, now.id, 37);
    expect(pages).toBe(Math.ceil(200 / 37));
    expect(all.map((record) => record.id).sort()).toEqual(
      [...immediate.map((b) => b.executionId)].sort(),
    );
    const times = all.map((record) => Date.parse(record.queuedAt ?? record.startedAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    // The request log too: one entry per call, merged over the shards, paged with nextCursor.
    const logged = await pagedRequests(ws, now.id, 45);
    expect(logged).toHaveLength(200);
    expect(new Set(logged.map((entry) => entry.id)).size).toBe(200);
    expect(new Set(logged.map((entry) => entry.executionId))).toEqual(
      new Set(immediate.map((body) => body.executionId)),
    );
    expect(logged.map((entry) => entry.id)).toEqual(
      [...logged.map((entry) => entry.id)].sort().reverse(),
    );
    expect(new Set(logged.map((entry) => shardOfId(entry.id)))).toEqual(new Set([0, 1, 2, 3]));
    const one = logged.find((entry) => shardOfId(entry.id) === 3);
    const detail = await expectJson<{ id: string; executionId: string }>(
      await call("GET", `/v1/manage/workflows/${now.id}/requests/${one?.id}`, {
        token: ws.ownerToken,
      }),
      200,
    );
    expect(detail).toMatchObject({ id: one?.id, executionId: one?.executionId });
  });
});

describe("lists merged over shards", () => {
  it("page exactly through executions and calls of one millisecond on every shard", async () => {
    const flow = await createWorkflow(ws, hot("immediate"));
    // One frozen clock: every record and log entry has the same time, so only the tie-breaks order them.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now());
    let ids: string[];
    try {
      ids = await Promise.all(
        Array.from({ length: 60 }, async (_, n) => {
          const answer = await hook(flow.webhookUrls.webhook_1 as string, { body: { n } });
          return (await expectJson<{ executionId: string }>(answer, 200)).executionId;
        }),
      );
    } finally {
      vi.useRealTimers();
    }
    expect(new Set(ids.map(shardOfId))).toEqual(new Set([0, 1, 2, 3]));
    for (const limit of [1, 7, 59]) {
      const { all } = await pagedExecutions(ws, flow.id, limit);
      expect(all.map((record) => record.id).sort()).toEqual([...ids].sort());
      // Same millisecond: the higher shard first, then each shard's own order, newest first.
      const shards = all.map((record) => shardOfId(record.id));
      expect(shards).toEqual([...shards].sort((a, b) => b - a));
      const logged = await pagedRequests(ws, flow.id, limit);
      expect(logged.map((entry) => entry.executionId).sort()).toEqual([...ids].sort());
    }
  });
});

describe("a workflow at the default rate", () => {
  it("keeps one runner, named as before, and ids without a shard mark", async () => {
    const flow = await createWorkflow(ws, hot("immediate", 1_200));
    const ids = await Promise.all(
      Array.from({ length: 20 }, async (_, n) => {
        const answer = await hook(flow.webhookUrls.webhook_1 as string, { body: { n } });
        return (await expectJson<{ executionId: string }>(answer, 200)).executionId;
      }),
    );
    // Time-ordered since issue 33 (docs/architecture.md#ids-and-formats): 9 + 15 characters.
    for (const id of ids) expect(id).toMatch(/^exe_[0-9A-Za-z]{24}$/);
    expect(new Set(await idsOnShard(flow.id, 0))).toEqual(new Set(ids));
    expect(await idsOnShard(flow.id, 1)).toEqual([]);
  });
});

describe("a stale shard count", () => {
  it("is corrected by the runners: more shards after a save, fewer after another", async () => {
    const flow = await createWorkflow(ws, hot("immediate", 1_200));
    const url = flow.webhookUrls.webhook_1 as string;
    const send = async (n: number) =>
      (await expectJson<{ executionId: string }>(await hook(url, { body: { n } }), 200))
        .executionId;
    // The Worker now holds the route with one shard.
    const before = await send(0);
    expect(shardOfId(before)).toBe(0);
    const save = (rate: number) =>
      call("PUT", `/v1/manage/workflows/${flow.id}`, {
        token: ws.ownerToken,
        body: { name: "Hot", slug: flow.slug, ...hot("immediate", rate) },
      });
    await expectJson(await save(rateFor(3)), 200);
    const grown = await Promise.all(Array.from({ length: 60 }, (_, n) => send(n + 1)));
    expect(new Set(grown.map(shardOfId))).toEqual(new Set([0, 1, 2]));

    await expectJson(await save(1_200), 200);
    const shrunk = await Promise.all(Array.from({ length: 20 }, (_, n) => send(n + 100)));
    expect(new Set(shrunk.map(shardOfId))).toEqual(new Set([0]));
    // Records on the shards no longer in use are still listed and found.
    const { all } = await pagedExecutions(ws, flow.id, 100);
    expect(all).toHaveLength(81);
    const away = grown.find((id) => shardOfId(id) === 2) as string;
    const found = await call("GET", `/v1/manage/workflows/${flow.id}/executions/${away}`, {
      token: ws.ownerToken,
    });
    expect(found.status).toBe(200);
  });

  it("a shard told another count answers reshard, counting and logging nothing", async () => {
    const flow = await createWorkflow(ws, hot("immediate", rateFor(2)));
    const base = {
      workflowId: flow.id,
      workspaceSlug: ws.slug,
      workflowSlug: flow.slug,
      nodeKey: "webhook_1",
      method: "POST",
      input: {
        ok: true as const,
        output: { body: {}, headers: {}, queryParams: {}, method: "POST" },
      },
      requestId: "req_stale",
      receivedAt: Date.now(),
      url: "https://example.test/",
      headers: {},
      body: new Uint8Array(0),
      size: 0,
      spill: false,
    };
    const stale = await shardStub(flow.id, 0).receive({ ...base, executionId: "exe_a", shards: 1 });
    expect(stale).toEqual({ kind: "reshard", shards: 2 });
    const gone = await shardStub(flow.id, 5).receive({
      ...base,
      executionId: "exe_b-5",
      shards: 2,
    });
    expect(gone).toEqual({ kind: "reshard", shards: 2 });
    expect(await pagedRequests(ws, flow.id, 10)).toEqual([]);
    expect(await idsOnShard(flow.id, 0)).toEqual([]);
  });
});
