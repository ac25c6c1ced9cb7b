/**
 * The edges of a workflow's `concurrency` (docs/webhooks.md#concurrency): the limit in force is
 * always the current definition's (a raised limit drains the queue at once; a replay on an older
 * definition changes nothing), a queued execution that cannot start does not stall the queue, and
 * a repeated delivery is answered as the first even while the queue is full.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { call, expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import { ECHO_URL, type ExecutionView, echoGates, execution, hook } from "../helpers/workflows";

const { gate, hits, release } = echoGates("edge");
const pause = () => new Promise((resolve) => setTimeout(resolve, 300));

function gated(concurrency: object | null, extra: object = {}) {
  return {
    nodes: [
      { type: "webhook", ...extra },
      {
        key: "gate",
        type: "http_request",
        method: "GET",
        url: `${ECHO_URL}/hold/{{webhook_1.body.gate}}`,
      },
    ],
    connections: [{ from: "webhook_1", to: "gate" }],
    concurrency,
  };
}

async function flowWith(ws: Workspace, definition: object) {
  const slug = `edge-${Math.random().toString(36).slice(2, 8)}`;
  const created = await expectJson<{ id: string; webhookUrls: { webhook_1: string } }>(
    await call("POST", "/v1/manage/workflows", {
      token: ws.ownerToken,
      body: { name: "Edge", slug, ...definition },
    }),
    201,
  );
  await call("POST", `/v1/manage/workflows/${created.id}/start`, { token: ws.ownerToken });
  return { ...created, slug };
}

const send = async (url: string, name: string, headers: Record<string, string> = {}) =>
  (
    await expectJson<{ executionId: string }>(
      await hook(url, { headers, body: { gate: gate(name) } }),
      200,
    )
  ).executionId;

const statusOf = async (ws: Workspace, flowId: string, id: string) =>
  (await execution(ws, flowId, id)).status as string;

describe("the limit in force", () => {
  it("a raised limit starts queued executions at once", async () => {
    const ws = await seedWorkspace();
    const flow = await flowWith(ws, gated({ limit: 1 }));
    await send(flow.webhookUrls.webhook_1, "raise-a");
    const queued = await send(flow.webhookUrls.webhook_1, "raise-b");
    await vi.waitFor(async () => expect(await hits("raise-a")).toBe(1));
    await pause();
    expect(await hits("raise-b")).toBe(0);
    const replaced = await call("PUT", `/v1/manage/workflows/${flow.id}`, {
      token: ws.ownerToken,
      body: { name: "Edge", slug: flow.slug, ...gated({ limit: 2 }) },
    });
    expect(replaced.status).toBe(200);
    await vi.waitFor(async () => expect(await hits("raise-b")).toBe(1));
    expect(await statusOf(ws, flow.id, queued)).toBe("running");
    await release("raise-a");
    await release("raise-b");
  });

  it("a replay on an older definition without a limit waits its turn like any other", async () => {
    const ws = await seedWorkspace();
    const flow = await flowWith(ws, gated(null));
    const old = await send(flow.webhookUrls.webhook_1, "old");
    await release("old");
    await vi.waitFor(async () => expect(await statusOf(ws, flow.id, old)).toBe("succeeded"));
    await call("PUT", `/v1/manage/workflows/${flow.id}`, {
      token: ws.ownerToken,
      body: { name: "Edge", slug: flow.slug, ...gated({ limit: 1 }) },
    });
    await send(flow.webhookUrls.webhook_1, "replay-a");
    await vi.waitFor(async () => expect(await hits("replay-a")).toBe(1));
    const waiting = await send(flow.webhookUrls.webhook_1, "replay-b");
    const replay = await expectJson<ExecutionView & { replayOf: string }>(
      await call("POST", `/v1/manage/workflows/${flow.id}/executions/${old}/replay`, {
        token: ws.ownerToken,
        body: { definition: "original" },
      }),
      201,
    );
    expect(replay.status).toBe("queued");
    await pause();
    // The original definition had no limit; the workflow's limit of 1 still holds.
    expect(await statusOf(ws, flow.id, waiting)).toBe("queued");
    await release("replay-a");
    await vi.waitFor(async () => expect(await hits("replay-b")).toBe(1));
    expect(await statusOf(ws, flow.id, replay.id)).toBe("queued");
    await release("replay-b");
    await vi.waitFor(async () => expect(await statusOf(ws, flow.id, replay.id)).toBe("succeeded"));
  });
});

describe("the queue", () => {
  it("records a queued execution that cannot start as failed and goes on with the next", async () => {
    const ws = await seedWorkspace();
    const flow = await flowWith(ws, gated({ limit: 1 }));
    await send(flow.webhookUrls.webhook_1, "stuck-a");
    const broken = await send(flow.webhookUrls.webhook_1, "stuck-b");
    const next = await send(flow.webhookUrls.webhook_1, "stuck-c");
    await vi.waitFor(async () => expect(await hits("stuck-a")).toBe(1));
    // Its sealed state no longer opens (a rotated SECRETS_KEY would do the same).
    const stub = env.WORKFLOW_RUNNER.get(env.WORKFLOW_RUNNER.idFromName(flow.id));
    await runInDurableObject(stub, async (_instance, state) => {
      // The record's key is its id's (docs/architecture.md#storage).
      const key = `x/~${broken.slice(4)}`;
      const row = await state.storage.get<Record<string, unknown>>(key);
      await state.storage.put(key, { ...row, live: "v1.tampered" });
    });
    await release("stuck-a");
    await vi.waitFor(async () => expect(await hits("stuck-c")).toBe(1));
    expect(await statusOf(ws, flow.id, broken)).toBe("failed");
    await release("stuck-c");
    await vi.waitFor(async () => expect(await statusOf(ws, flow.id, next)).toBe("succeeded"));
  });

  it("answers a repeated delivery as the first even while the queue is full", async () => {
    const ws = await seedWorkspace();
    const flow = await flowWith(
      ws,
      gated({ limit: 1, queueLimit: 1 }, { dedupe: { key: "{{webhook_1.headers.x-delivery}}" } }),
    );
    const url = flow.webhookUrls.webhook_1;
    const first = await send(url, "full-a", { "x-delivery": "d-1" });
    await send(url, "full-b", { "x-delivery": "d-2" });
    const repeat = await hook(url, {
      headers: { "x-delivery": "d-1" },
      body: { gate: gate("full-a") },
    });
    expect(repeat.headers.get("x-deduplicated")).toBe("true");
    expect((await expectJson<{ executionId: string }>(repeat, 200)).executionId).toBe(first);
    const refused = await hook(url, { headers: { "x-delivery": "d-3" }, body: { gate: "x" } });
    expect(refused.status).toBe(429);
    await release("full-a");
    await release("full-b");
    // The refused delivery's key was not kept: its retry runs.
    await vi.waitFor(async () => {
      const retried = await hook(url, {
        headers: { "x-delivery": "d-3" },
        body: { gate: gate("full-c") },
      });
      expect(retried.status).toBe(200);
      expect(retried.headers.get("x-deduplicated")).toBeNull();
    });
    await release("full-c");
  });
});
