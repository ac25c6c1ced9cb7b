/**
 * The Workflow-runner's durability (docs/api/webhooks.md): an execution interrupted by a restart resumes from
 * its last completed node and completes once; `wait` outlives restarts through the alarm; a duplicate
 * alarm runs nothing twice; a lastNode or responseNode caller whose object restarted is answered from
 * the record or once the resumed execution answers.
 */
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { FINISHED_BATCH_MS } from "../../src/workflows/runner/execution-store";
import { call, expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import { createWorkflow, ECHO_URL, execution, hook, type WorkflowView } from "../helpers/workflows";

let ws: Workspace;
beforeAll(async () => {
  ws = await seedWorkspace();
});

const runner = (workflowId: string) =>
  env.WORKFLOW_RUNNER.get(env.WORKFLOW_RUNNER.idFromName(workflowId));

async function hits(id: string): Promise<number> {
  return ((await (await fetch(`${ECHO_URL}/hits/${id}`)).json()) as { hits: number }).hits;
}

/** Runs the runner's alarm with the clock moved past every wait (an hour and a minute on). */
async function alarmAfterWaits(workflowId: string): Promise<boolean> {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Date.now() + 3_660_000);
  try {
    return await runDurableObjectAlarm(runner(workflowId));
  } finally {
    vi.useRealTimers();
  }
}

/**
 * Restarts the object the hard way (as a crash or a deploy would): in-flight fetches and held calls
 * break. `evictDurableObject` would instead wait for them to finish.
 */
async function restart(workflowId: string): Promise<void> {
  await runInDurableObject(runner(workflowId), (_instance, state) =>
    state.abort("test restart"),
  ).catch(() => undefined);
}

async function finished(workflowId: string, executionId: string) {
  return vi.waitFor(
    async () => {
      const record = await execution(ws, workflowId, executionId);
      if (record.status === "running") throw new Error("still running");
      return record;
    },
    { timeout: 10_000, interval: 20 },
  );
}

function waitThenCount(counterId: string, webhook: Record<string, unknown> = {}, seconds = 3600) {
  return {
    nodes: [
      { type: "webhook", ...webhook },
      { key: "pause", type: "wait", seconds },
      { key: "count", type: "http_request", url: `${ECHO_URL}/count/${counterId}` },
      { key: "done", type: "set", fields: { hits: "{{count.body.hits}}" } },
    ],
    connections: [
      { from: "webhook_1", to: "pause" },
      { from: "pause", to: "count" },
      { from: "count", to: "done" },
    ],
  };
}

describe("wait outlives a restart; alarms are idempotent", () => {
  it("resumes after eviction from the alarm and completes once, a second alarm runs nothing", async () => {
    const counter = crypto.randomUUID();
    const flow = await createWorkflow(ws, waitThenCount(counter));
    const { executionId } = await expectJson<{ executionId: string }>(
      await hook(flow.webhookUrls.webhook_1 as string, { body: {} }),
      200,
    );
    expect((await execution(ws, flow.id, executionId)).nodes.at(-1)).toMatchObject({
      key: "pause",
      status: "waiting",
    });

    await evictDurableObject(runner(flow.id));
    expect(await alarmAfterWaits(flow.id)).toBe(true);
    const record = await finished(flow.id, executionId);
    expect(record.status).toBe("succeeded");
    expect(record.nodes.map((n) => n.key)).toEqual(["webhook_1", "pause", "count", "done"]);
    expect(record.nodes[1]?.output).toEqual({ waitedSeconds: 3600 });
    expect(record.nodes[3]?.output).toEqual({ hits: 1 });

    // A duplicate alarm (or one that fires late) finds nothing due.
    await runInDurableObject(runner(flow.id), (_instance, state) =>
      state.storage.setAlarm(Date.now()),
    );
    await runDurableObjectAlarm(runner(flow.id));
    expect(await hits(counter)).toBe(1);
    expect((await execution(ws, flow.id, executionId)).nodes).toHaveLength(4);
  });

  it("an alarm before the wait has elapsed changes nothing", async () => {
    const counter = crypto.randomUUID();
    const flow = await createWorkflow(ws, waitThenCount(counter));
    const { executionId } = await expectJson<{ executionId: string }>(
      await hook(flow.webhookUrls.webhook_1 as string, { body: {} }),
      200,
    );
    await runInDurableObject(runner(flow.id), (_instance, state) =>
      state.storage.setAlarm(Date.now()),
    );
    await runDurableObjectAlarm(runner(flow.id));
    const record = await execution(ws, flow.id, executionId);
    expect(record.status).toBe("running");
    expect(record.nodes.at(-1)).toMatchObject({ key: "pause", status: "waiting" });
    expect(await hits(counter)).toBe(0);
  });
});

describe("a restart in the middle of a fetch", () => {
  it("resumes from the last completed node: the interrupted node runs again, the rest once", async () => {
    const hold = crypto.randomUUID();
    const counter = crypto.randomUUID();
    const flow: WorkflowView = await createWorkflow(ws, {
      nodes: [
        { type: "webhook" },
        { key: "before", type: "http_request", url: `${ECHO_URL}/count/${counter}` },
        { key: "slow", type: "http_request", url: `${ECHO_URL}/hold/${hold}`, timeoutSeconds: 60 },
        { key: "done", type: "set", fields: { released: "{{slow.body.released}}" } },
      ],
      connections: [
        { from: "webhook_1", to: "before" },
        { from: "before", to: "slow" },
        { from: "slow", to: "done" },
      ],
    });
    const { executionId } = await expectJson<{ executionId: string }>(
      await hook(flow.webhookUrls.webhook_1 as string, { body: {} }),
      200,
    );
    await vi.waitFor(async () => expect(await hits(hold)).toBe(1), {
      timeout: 10_000,
      interval: 20,
    });
    expect((await execution(ws, flow.id, executionId)).nodes.at(-1)).toMatchObject({
      key: "slow",
      status: "running",
    });

    await restart(flow.id);
    await fetch(`${ECHO_URL}/release/${hold}`);
    // Starting again, the object finds the interrupted fetch and sets its alarm for now.
    expect(await runDurableObjectAlarm(runner(flow.id))).toBe(true);
    const record = await finished(flow.id, executionId);
    expect(record.status).toBe("succeeded");
    expect(record.nodes.map((n) => [n.key, n.status])).toEqual([
      ["webhook_1", "succeeded"],
      ["before", "succeeded"],
      ["slow", "succeeded"],
      ["done", "succeeded"],
    ]);
    expect(record.nodes[3]?.output).toEqual({ released: true });
    expect(await hits(counter)).toBe(1);
    expect(await hits(hold)).toBe(2);
  });
});

describe("a lastNode caller held when the object restarts", () => {
  it("is re-attached and gets the final output from the resumed execution", async () => {
    const counter = crypto.randomUUID();
    const flow = await createWorkflow(
      ws,
      waitThenCount(counter, { responseMode: "lastNode", responseTimeoutSeconds: 60 }, 2),
    );
    const pending = hook(flow.webhookUrls.webhook_1 as string, { body: {} });
    await vi.waitFor(
      async () => {
        const page = await call("GET", `/v1/manage/workflows/${flow.id}/executions`, {
          token: ws.ownerToken,
        });
        expect(((await page.json()) as { data: unknown[] }).data).toHaveLength(1);
      },
      { timeout: 10_000, interval: 20 },
    );
    await restart(flow.id);
    // The broken call re-attaches through a new instance; the wait (2 s) then elapses and the
    // object's own alarm continues the execution.
    const response = await pending;
    expect(await expectJson(response, 200)).toEqual({ hits: 1 });
    expect(await hits(counter)).toBe(1);
  });
});

describe("a responseNode caller held when the object restarts", () => {
  it("is re-attached and gets the respond node's reply while the run goes on", async () => {
    const flow = await createWorkflow(ws, {
      nodes: [
        { type: "webhook", responseMode: "responseNode", responseTimeoutSeconds: 60 },
        { key: "pause", type: "wait", seconds: 2 },
        { key: "reply", type: "respond", status: 201, body: { id: "{{webhook_1.body.id}}" } },
        { key: "after", type: "wait", seconds: 3600 },
      ],
      connections: [
        { from: "webhook_1", to: "pause" },
        { from: "pause", to: "reply" },
        { from: "reply", to: "after" },
      ],
    });
    const pending = hook(flow.webhookUrls.webhook_1 as string, { body: { id: 4 } });
    await vi.waitFor(
      async () => {
        const page = await call("GET", `/v1/manage/workflows/${flow.id}/executions`, {
          token: ws.ownerToken,
        });
        expect(((await page.json()) as { data: unknown[] }).data).toHaveLength(1);
      },
      { timeout: 10_000, interval: 20 },
    );
    await restart(flow.id);
    const response = await pending;
    expect(await expectJson(response, 201)).toEqual({ id: 4 });
    const record = await execution(ws, flow.id, response.headers.get("x-execution-id") as string);
    expect(record.status).toBe("running");
  });
});

describe("a finished execution's record", () => {
  // Held replies never come under frozen timers: fail in seconds, not at the suite's timeout.
  it("does not hold the reply: shown at once, durable within FINISHED_BATCH_MS", {
    timeout: 15_000,
  }, async () => {
    const flow = await createWorkflow(ws, {
      nodes: [{ type: "webhook" }, { key: "ok", type: "set", fields: { ok: true } }],
      connections: [{ from: "webhook_1", to: "ok" }],
    });
    const receive = (executionId: string, frozen: boolean) =>
      runInDurableObject(runner(flow.id), async (instance) => {
        // Frozen timers: the store's batch cannot be written until the test moves time on.
        if (frozen) vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
        try {
          const outcome = await instance.receive({
            workflowId: flow.id,
            workspaceSlug: ws.slug,
            workflowSlug: flow.slug,
            nodeKey: "webhook_1",
            method: "POST",
            executionId,
            shards: 1,
            spill: false,
            input: { ok: true, output: { body: {}, headers: {}, queryParams: {}, method: "POST" } },
            requestId: "req_test",
            receivedAt: Date.now(),
            url: "https://example.test/",
            headers: {},
            body: new Uint8Array(0),
            size: 0,
          });
          expect(outcome).toEqual({ kind: "accepted", executionId });
          // Answered and shown before anything was written.
          expect((await instance.getExecution(executionId))?.status).toBe("succeeded");
          return instance;
        } finally {
          vi.useRealTimers();
        }
      });
    // A crash before the window ends loses the unwritten record (the documented trade-off)...
    await receive("exe_reply_first", true);
    await restart(flow.id);
    expect(await runner(flow.id).getExecution("exe_reply_first")).toBeNull();
    // ...and once the window has passed, the record survives a crash.
    await receive("exe_reply_second", false);
    await new Promise((resolve) => setTimeout(resolve, FINISHED_BATCH_MS * 5));
    await restart(flow.id);
    expect((await runner(flow.id).getExecution("exe_reply_second"))?.status).toBe("succeeded");
  });
});
