/**
 * What stays exact on a workflow spread over several runner shards (docs/scaling.md): each shard
 * enforces its share of a node's rate limit and a call it cannot take goes to the next, so the
 * limit is never passed and is reached before anything is refused; delivery keys are judged on
 * shard 0, so one key starts one execution whichever shards its deliveries reach (keys claimed
 * before the workflow had shards included); a result handle, a replay and a bulk replay go to the
 * shard of their execution; capture stays on shard 0; a concurrency limit keeps one runner.
 */
import { describe, expect, it, vi } from "vitest";
import { RUNNER_CAPACITY_PER_MINUTE, shardOfId } from "../../src/workflows/runner/shards";
import { call, eventually, expectJson, seedWorkspace } from "../helpers/api";
import { idsOnShard, pagedExecutions, pagedRequests } from "../helpers/shards";
import { createWorkflow, ECHO_URL, echoGates, hook } from "../helpers/workflows";

const FOUR = 3 * RUNNER_CAPACITY_PER_MINUTE + 1;
const { gate, release } = echoGates("shards");

/** Four shards (webhook_1's rate) and a second webhook whose limit is `limit` a minute. */
const twoHooks = (limit: number) => ({
  nodes: [
    { type: "webhook", rateLimitPerMinute: FOUR },
    { type: "webhook", rateLimitPerMinute: limit },
    { key: "ok", type: "set", fields: { n: "{{webhook_2.body.n}}" } },
  ],
  connections: [{ from: "webhook_2", to: "ok" }],
});

const perShard = (workflowId: string) =>
  Promise.all([0, 1, 2, 3].map(async (shard) => (await idsOnShard(workflowId, shard)).length));

describe("the rate limit over four shards", () => {
  it("takes exactly the limit one call after another: a shard whose share is used passes it on", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, twoHooks(10));
    const url = flow.webhookUrls.webhook_2 as string;
    for (let n = 0; n < 10; n++) expect((await hook(url, { body: { n } })).status).toBe(200);
    const refused = await hook(url, { body: { n: 10 } });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // The shares, 10 over 4: 3, 3, 2, 2, each used to the last.
    expect(await perShard(flow.id)).toEqual([3, 3, 2, 2]);
  });

  it("never passes the limit under concurrency, and logs each refusal once", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, twoHooks(10));
    const url = flow.webhookUrls.webhook_2 as string;
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, n) => hook(url, { body: { n } })),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(10);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(30);
    expect((await perShard(flow.id)).reduce((a, b) => a + b)).toBe(10);
    const logged = await pagedRequests(ws, flow.id, 100);
    expect(logged.filter((entry) => entry.outcome === "rate_limited")).toHaveLength(30);
    expect(logged.filter((entry) => entry.outcome === "accepted")).toHaveLength(10);
  });
});

describe("deduplication over four shards", () => {
  const keyed = (responseMode: string, rateLimitPerMinute = FOUR) => ({
    nodes: [
      {
        type: "webhook",
        responseMode,
        rateLimitPerMinute,
        dedupe: { key: "{{webhook_1.headers.x-delivery}}" },
      },
      { key: "ok", type: "set", fields: { n: "{{webhook_1.body.n}}" } },
    ],
    connections: [{ from: "webhook_1", to: "ok" }],
  });

  for (const responseMode of ["immediate", "lastNode"]) {
    it(`starts one execution for simultaneous deliveries of one key (${responseMode})`, async () => {
      const ws = await seedWorkspace();
      const flow = await createWorkflow(ws, keyed(responseMode));
      const answers = await Promise.all(
        Array.from({ length: 24 }, (_, n) =>
          hook(flow.webhookUrls.webhook_1 as string, {
            headers: { "x-delivery": "one" },
            body: { n },
          }),
        ),
      );
      expect(answers.map((r) => r.status)).toEqual(Array(24).fill(200));
      const ids = new Set(answers.map((r) => r.headers.get("x-execution-id")));
      expect(ids.size).toBe(1);
      expect(answers.filter((r) => r.headers.get("x-deduplicated") === "true")).toHaveLength(23);
      if (responseMode === "lastNode") {
        // Every repeat got the first run's output, wherever it ran.
        const bodies = await Promise.all(answers.map((r) => r.json()));
        expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBe(1);
      }
      expect((await perShard(flow.id)).reduce((a, b) => a + b)).toBe(1);
    });
  }

  it("keeps keys claimed before the workflow had shards", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, keyed("immediate", 1_200));
    const send = (n: number) =>
      hook(flow.webhookUrls.webhook_1 as string, { headers: { "x-delivery": "old" }, body: { n } });
    const first = await expectJson<{ executionId: string }>(await send(0), 200);
    await expectJson(
      await call("PUT", `/v1/manage/workflows/${flow.id}`, {
        token: ws.ownerToken,
        body: { name: "Keyed", slug: flow.slug, ...keyed("immediate") },
      }),
      200,
    );
    for (let n = 1; n <= 12; n++) {
      const again = await send(n);
      expect(await expectJson(again, 200)).toEqual({
        success: true,
        executionId: first.executionId,
      });
    }
    expect((await perShard(flow.id)).reduce((a, b) => a + b)).toBe(1);
  });
});

describe("the shard of an execution", () => {
  it("serves its result handle, its replay and its bulk replay", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, {
      nodes: [
        {
          type: "webhook",
          responseMode: "lastNode",
          responseTimeoutSeconds: 1,
          rateLimitPerMinute: FOUR,
        },
        {
          key: "gate",
          type: "http_request",
          method: "GET",
          url: `${ECHO_URL}/hold/{{webhook_1.body.gate}}`,
        },
        { key: "call", type: "http_request", method: "GET", url: "{{webhook_1.body.url}}" },
      ],
      connections: [
        { from: "webhook_1", to: "gate" },
        { from: "gate", to: "call" },
      ],
    });
    const since = new Date().toISOString();
    const timedOut = await Promise.all(
      Array.from({ length: 12 }, () =>
        hook(flow.webhookUrls.webhook_1 as string, { body: { gate: gate("a"), url: "bad" } }).then(
          (r) =>
            expectJson<{ error: { executionId: string; resultUrl: string; resultToken: string } }>(
              r,
              504,
            ),
        ),
      ),
    );
    const away = timedOut.find((body) => shardOfId(body.error.executionId) > 0);
    if (!away) throw new Error("twelve calls all landed on shard 0");
    const shard = shardOfId(away.error.executionId);
    const path = new URL(away.error.resultUrl).pathname;
    expect(path).toBe(`/webhooks/results/${away.error.executionId}`);
    // The token names the workflow and the shard: `<workflow id>-<k>.<secret>`.
    expect(away.error.resultToken).toMatch(new RegExp(`^${flow.id}-${shard}\\.[0-9A-Za-z_-]{43}$`));
    const token = away.error.resultToken;
    expect(await expectJson(await call("GET", path, { token }), 202)).toEqual({
      status: "running",
      executionId: away.error.executionId,
    });
    await release("a");
    const failed = await eventually(async () => {
      const answer = await call("GET", path, { token });
      return answer.status === 500 ? answer : undefined;
    }, 10_000);
    expect(failed.headers.get("x-execution-id")).toBe(away.error.executionId);

    await vi.waitFor(async () => {
      const { all } = await pagedExecutions(ws, flow.id, 100);
      if (all.length !== 12 || all.some((r) => (r as { status?: string }).status !== "failed"))
        throw new Error("not all failed yet");
    });
    const until = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const replayed = await expectJson<{ id: string; replayOf: string }>(
      await call(
        "POST",
        `/v1/manage/workflows/${flow.id}/executions/${away.error.executionId}/replay`,
        {
          token: ws.ownerToken,
          body: {},
        },
      ),
      201,
    );
    expect(replayed.replayOf).toBe(away.error.executionId);
    expect(shardOfId(replayed.id)).toBe(shard);
    expect(await idsOnShard(flow.id, shard)).toContain(replayed.id);

    const bulk = await call("POST", `/v1/manage/workflows/${flow.id}/executions/replay`, {
      token: ws.ownerToken,
      body: { status: "failed", since, until },
    });
    // The twelve failures, each replayed by the shard that holds it.
    expect(await expectJson(bulk, 202)).toEqual({ count: 12 });
  });
});

describe("what stays on one runner", () => {
  it("capture arms and stores on shard 0; a concurrency limit keeps the workflow unsharded", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, twoHooks(FOUR));
    const armed = await expectJson<{ testUrl: string }>(
      await call("POST", `/v1/manage/workflows/${flow.id}/nodes/webhook_2/capture`, {
        token: ws.ownerToken,
        body: { count: 3 },
      }),
      201,
    );
    for (let n = 0; n < 3; n++) {
      expect(await expectJson(await hook(armed.testUrl, { body: { n } }), 200)).toEqual({
        captured: true,
      });
    }
    expect((await hook(armed.testUrl, { body: {} })).status).toBe(404);
    const samples = await expectJson<{ data: unknown[] }>(
      await call("GET", `/v1/manage/workflows/${flow.id}/nodes/webhook_2/samples`, {
        token: ws.ownerToken,
      }),
      200,
    );
    expect(samples.data).toHaveLength(3);

    const created = await expectJson<{ id: string; slug: string }>(
      await call("POST", "/v1/manage/workflows", {
        token: ws.ownerToken,
        body: { name: "Limited", slug: "limited", ...twoHooks(FOUR), concurrency: { limit: 50 } },
      }),
      201,
    );
    await call("POST", `/v1/manage/workflows/${created.id}/start`, { token: ws.ownerToken });
    const limited = {
      webhookUrls: { webhook_2: `https://edge.test/webhooks/${ws.slug}/limited/webhook_2` },
    };
    const ids = await Promise.all(
      Array.from({ length: 16 }, async (_, n) => {
        const answer = await hook(limited.webhookUrls.webhook_2 as string, { body: { n } });
        return (await expectJson<{ executionId: string }>(answer, 200)).executionId;
      }),
    );
    expect(ids.map(shardOfId)).toEqual(Array(16).fill(0));
  });
});
