/**
 * A workflow's `concurrency` (docs/webhooks.md#concurrency): at most `limit` executions run at
 * once, the rest wait in a durable FIFO queue (surviving restarts) and start in order; a full
 * queue answers 429 queue_full with Retry-After.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { call, errorCode, expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import {
  createWorkflow,
  ECHO_URL,
  type ExecutionView,
  echoGates,
  execution,
  hook,
} from "../helpers/workflows";

type Record = ExecutionView & { queuedAt: string | null; status: string };

/** Each execution's http_request node waits at the echo server until its gate is released. */
const gated = (concurrency: object, responseMode = "immediate") => ({
  nodes: [
    { type: "webhook", responseMode },
    {
      key: "gate",
      type: "http_request",
      method: "GET",
      url: `${ECHO_URL}/hold/{{webhook_1.body.gate}}`,
    },
    { key: "done", type: "set", fields: { gate: "{{webhook_1.body.gate}}" } },
  ],
  connections: [
    { from: "webhook_1", to: "gate" },
    { from: "gate", to: "done" },
  ],
  concurrency,
});

const { gate, hits, release } = echoGates("run");
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

async function createGated(ws: Workspace, concurrency: object, responseMode?: string) {
  const created = await call("POST", "/v1/manage/workflows", {
    token: ws.ownerToken,
    body: {
      name: "Gated",
      slug: `gated-${Math.random().toString(36).slice(2, 8)}`,
      ...gated(concurrency, responseMode),
    },
  });
  const flow = await expectJson<{
    id: string;
    webhookUrls: { webhook_1: string };
    concurrency: unknown;
  }>(created, 201);
  await call("POST", `/v1/manage/workflows/${flow.id}/start`, { token: ws.ownerToken });
  return flow;
}

describe("workflow concurrency", () => {
  it("limit 1 runs strictly one after another, in the order the calls came", async () => {
    const ws = await seedWorkspace();
    const flow = await createGated(ws, { limit: 1 });
    expect(flow.concurrency).toEqual({ limit: 1, queueLimit: 1_000 });
    const ids: string[] = [];
    for (const name of ["a", "b", "c"]) {
      const answer = await hook(flow.webhookUrls.webhook_1, { body: { gate: gate(name) } });
      const { executionId } = await expectJson<{ executionId: string }>(answer, 200);
      expect(answer.headers.get("x-execution-status")).toBe(name === "a" ? null : "queued");
      ids.push(executionId);
    }
    await vi.waitFor(async () => expect(await hits("a")).toBe(1));
    await settle();
    expect([await hits("b"), await hits("c")]).toEqual([0, 0]);
    const queued = (await execution(ws, flow.id, ids[1] as string)) as Record;
    expect(queued.status).toBe("queued");
    expect(queued.queuedAt).not.toBeNull();

    await release("a");
    await vi.waitFor(async () => expect(await hits("b")).toBe(1));
    await settle();
    expect(await hits("c")).toBe(0);
    await release("b");
    await vi.waitFor(async () => expect(await hits("c")).toBe(1));
    await release("c");
    const records = await vi.waitFor(async () => {
      const all = await Promise.all(ids.map((id) => execution(ws, flow.id, id) as Promise<Record>));
      if (all.some((record) => record.status !== "succeeded")) throw new Error("not done");
      return all;
    });
    // Never two at once: each started after the one before it finished; the wait is recorded.
    for (let i = 1; i < records.length; i++) {
      const [before, after] = [records[i - 1] as Record, records[i] as Record];
      expect(Date.parse(after.startedAt)).toBeGreaterThanOrEqual(
        Date.parse(before.finishedAt ?? ""),
      );
      expect(Date.parse(after.queuedAt ?? "")).toBeLessThanOrEqual(Date.parse(after.startedAt));
    }
    expect(records[0]?.queuedAt).toBeNull();
  });

  it("answers 429 queue_full with Retry-After when the queue is full, and logs it", async () => {
    const ws = await seedWorkspace();
    const flow = await createGated(ws, { limit: 1, queueLimit: 1 });
    const url = flow.webhookUrls.webhook_1;
    expect((await hook(url, { body: { gate: gate("full-1") } })).status).toBe(200);
    expect(
      (await hook(url, { body: { gate: gate("full-2") } })).headers.get("x-execution-status"),
    ).toBe("queued");
    const refused = await hook(url, { body: { gate: gate("full-3") } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(await errorCode(refused)).toBe("queue_full");
    const log = await expectJson<{ data: { outcome: string; status: number }[] }>(
      await call("GET", `/v1/manage/workflows/${flow.id}/requests`, { token: ws.ownerToken }),
      200,
    );
    expect(log.data.map((entry) => [entry.outcome, entry.status])).toEqual([
      ["queue_full", 429],
      ["queued", 200],
      ["accepted", 200],
    ]);
    await release("full-1");
    await release("full-2");
  });

  it("keeps its queue across a restart of the runner, and a lastNode caller waits its turn", async () => {
    const ws = await seedWorkspace();
    const flow = await createGated(ws, { limit: 1 }, "lastNode");
    const url = flow.webhookUrls.webhook_1;
    const first = hook(url, { body: { gate: gate("r-1") } });
    await vi.waitFor(async () => expect(await hits("r-1")).toBe(1));
    const second = hook(url, { body: { gate: gate("r-2") } });
    await vi.waitFor(async () => {
      const listed = await expectJson<{ data: Record[] }>(
        await call("GET", `/v1/manage/workflows/${flow.id}/executions`, { token: ws.ownerToken }),
        200,
      );
      expect(listed.data.map((record) => record.status)).toEqual(["queued", "running"]);
    });
    const stub = env.WORKFLOW_RUNNER.get(env.WORKFLOW_RUNNER.idFromName(flow.id));
    await runInDurableObject(stub, (_instance, state) => state.abort("test restart")).catch(
      () => undefined,
    );
    // The callers were held by the old instance: the Worker re-attaches them.
    await release("r-1");
    await vi.waitFor(async () => expect(await hits("r-2")).toBeGreaterThanOrEqual(1), {
      timeout: 15_000,
    });
    await release("r-2");
    expect(await expectJson(await second, 200)).toEqual({ gate: gate("r-2") });
    expect((await first).status).toBe(200);
  });

  it("refuses bad settings with every problem listed", async () => {
    const ws = await seedWorkspace();
    const bad = await call("POST", "/v1/manage/workflows", {
      token: ws.ownerToken,
      body: {
        name: "Bad",
        slug: "bad-concurrency",
        ...gated({ limit: 0, queueLimit: 10_001, extra: 1 }),
      },
    });
    expect(bad.status).toBe(400);
    const { error } = (await bad.json()) as { error: { details: { field: string }[] } };
    expect(error.details.map((detail) => detail.field).sort()).toEqual(
      ["concurrency.extra", "concurrency.limit", "concurrency.queueLimit"].sort(),
    );
    const plain = await createWorkflow(ws, { nodes: [{ type: "webhook" }] });
    expect((plain as unknown as { concurrency: unknown }).concurrency).toBeNull();
  });
});
