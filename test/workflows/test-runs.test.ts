/**
 * Test runs (docs/webhooks.md#test-runs): a test URL armed with `run` starts an execution of the
 * saved definition of a stopped workflow; `POST …/nodes/{key}/test-runs` runs it with the newest
 * or a named sample; both are `mode: test`, listed with `?mode=test`, left out of the metrics.
 */
import { describe, expect, it } from "vitest";
import {
  call,
  errorCode,
  eventually,
  expectJson,
  seedWorkspace,
  type Workspace,
} from "../helpers/api";
import {
  createWorkflow,
  ECHO_URL,
  type ExecutionView,
  execution,
  hook,
} from "../helpers/workflows";

type Run = ExecutionView & { mode: "production" | "test" };
type Page = { data: Run[]; hasMore: boolean; nextCursor: string | null };

const flowOf = (fail = false) => ({
  nodes: [
    { type: "webhook" },
    fail
      ? { key: "out", type: "http_request", url: `${ECHO_URL}/status/503` }
      : { key: "out", type: "set", fields: { id: "{{webhook_1.body.id}}" } },
  ],
  connections: [{ from: "webhook_1", to: "out" }],
});
const arm = (ws: Workspace, id: string, body: object) =>
  call("POST", `/v1/manage/workflows/${id}/nodes/webhook_1/capture`, {
    token: ws.ownerToken,
    body,
  });
const testRun = (ws: Workspace, id: string, body?: object, key = "webhook_1") =>
  call("POST", `/v1/manage/workflows/${id}/nodes/${key}/test-runs`, {
    token: ws.ownerToken,
    ...(body ? { body } : {}),
  });
const list = async (ws: Workspace, id: string, query = "") =>
  expectJson<Page>(
    await call("GET", `/v1/manage/workflows/${id}/executions${query}`, { token: ws.ownerToken }),
    200,
  );
const finished = (ws: Workspace, id: string, executionId: string) =>
  eventually(async () => {
    const run = (await execution(ws, id, executionId)) as Run;
    return run.status === "running" ? undefined : run;
  });

describe("test runs", () => {
  it("capture with run starts a test execution of a stopped workflow with the call", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, flowOf(), { start: false });
    const armed = await expectJson<{ run: boolean; testUrl: string }>(
      await arm(ws, flow.id, { run: true }),
      201,
    );
    expect(armed.run).toBe(true);
    // The Workflow answer gives the same test URL the arming does (the editor shows it).
    expect(flow.webhookTestUrls.webhook_1).toBe(armed.testUrl);
    expect(flow.webhookTestUrls.webhook_1).toContain("/webhook-test/");
    const answer = await hook(flow.webhookTestUrls.webhook_1 ?? "", { body: { id: 7 } });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { captured: true; executionId: string };
    expect(body.captured).toBe(true);
    expect(answer.headers.get("x-execution-id")).toBe(body.executionId);

    const run = await finished(ws, flow.id, body.executionId);
    expect(run).toMatchObject({ status: "succeeded", mode: "test" });
    expect(run.nodes.find((node) => node.key === "out")?.output).toEqual({ id: 7 });
    // The production URL of the stopped workflow still runs nothing.
    expect((await hook(flow.webhookUrls.webhook_1 as string, { body: {} })).status).toBe(404);

    // Armed without `run` (the default), a captured call runs nothing, as before.
    expect((await expectJson<{ run: boolean }>(await arm(ws, flow.id, {}), 201)).run).toBe(false);
    const plain = await hook(flow.webhookTestUrls.webhook_1 ?? "", { body: { id: 8 } });
    expect(await plain.json()).toEqual({ captured: true });
    expect((await list(ws, flow.id)).data).toHaveLength(1);
  });

  it("test-runs run the newest sample or a named one; an unknown sample is 404", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, flowOf(), { start: false });
    // No sample yet: 404, and an unknown node too.
    expect(await errorCode(await testRun(ws, flow.id))).toBe("not_found");
    expect(await errorCode(await testRun(ws, flow.id, {}, "out"))).toBe("not_found");
    await expectJson(await arm(ws, flow.id, { count: 2 }), 201);
    for (const id of [1, 2]) {
      expect((await hook(flow.webhookTestUrls.webhook_1 ?? "", { body: { id } })).status).toBe(200);
    }
    const samples = await expectJson<{ data: { id: string }[] }>(
      await call("GET", `/v1/manage/workflows/${flow.id}/nodes/webhook_1/samples`, {
        token: ws.ownerToken,
      }),
      200,
    );
    const [newest, oldest] = samples.data;

    const byDefault = await expectJson<{ executionId: string; sampleId: string }>(
      await testRun(ws, flow.id),
      202,
    );
    expect(byDefault.sampleId).toBe(newest?.id);
    const first = await finished(ws, flow.id, byDefault.executionId);
    expect(first.nodes.find((node) => node.key === "out")?.output).toEqual({ id: 2 });

    const named = await expectJson<{ executionId: string; sampleId: string }>(
      await testRun(ws, flow.id, { sampleId: oldest?.id }),
      202,
    );
    const second = await finished(ws, flow.id, named.executionId);
    expect(second).toMatchObject({ mode: "test", status: "succeeded" });
    expect(second.nodes.find((node) => node.key === "out")?.output).toEqual({ id: 1 });

    expect(await errorCode(await testRun(ws, flow.id, { sampleId: "smp_999999" }))).toBe(
      "not_found",
    );
    expect((await testRun(ws, flow.id, { sampleId: "nope" })).status).toBe(400);
  });

  it("test-runs run an execution's trigger input again, as a test (Debug in editor)", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, flowOf());
    const answer = await hook(flow.webhookUrls.webhook_1 as string, { body: { id: 5 } });
    const productionId = answer.headers.get("x-execution-id") as string;
    await finished(ws, flow.id, productionId);
    const started = await expectJson<{ executionId: string; sampleId: null; replayOf: string }>(
      await testRun(ws, flow.id, { executionId: productionId }),
      202,
    );
    expect(started).toMatchObject({ sampleId: null, replayOf: productionId });
    const run = await finished(ws, flow.id, started.executionId);
    expect(run).toMatchObject({ mode: "test", status: "succeeded" });
    expect(run.nodes.find((node) => node.key === "out")?.output).toEqual({ id: 5 });
    // Not an execution of this node, or of this workflow; not both sources at once.
    expect(await errorCode(await testRun(ws, flow.id, { executionId: "exe_unknown" }))).toBe(
      "not_found",
    );
    const both = await testRun(ws, flow.id, { executionId: productionId, sampleId: "smp_1" });
    expect(both.status).toBe(400);
  });

  it("lists the mode, filters by it, and leaves tests out of the metrics", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, flowOf(true));
    await expectJson(await arm(ws, flow.id, {}), 201);
    expect((await hook(flow.webhookTestUrls.webhook_1 ?? "", { body: { id: 1 } })).status).toBe(
      200,
    );
    const started = await expectJson<{ executionId: string }>(await testRun(ws, flow.id), 202);
    const failed = await finished(ws, flow.id, started.executionId);
    expect(failed.status).toBe("failed");
    expect(failed.nodes.find((node) => node.key === "out")?.error).toBeTruthy();
    // A production call, after the test.
    const ok = await createWorkflow(ws, flowOf());
    expect((await hook(ok.webhookUrls.webhook_1 as string, { body: { id: 2 } })).status).toBe(200);
    expect((await hook(flow.webhookUrls.webhook_1 as string, { body: { id: 3 } })).status).toBe(
      200,
    );

    const all = await list(ws, flow.id);
    expect(all.data.map((run) => run.mode)).toEqual(["production", "test"]);
    const tests = await list(ws, flow.id, "?mode=test");
    expect(tests.data.map((run) => run.id)).toEqual([started.executionId]);
    const production = await list(ws, flow.id, "?mode=production&limit=1");
    expect(production.data.map((run) => run.mode)).toEqual(["production"]);
    expect(production.hasMore).toBe(false);
    expect(
      (
        await call("GET", `/v1/manage/workflows/${flow.id}/executions?mode=x`, {
          token: ws.ownerToken,
        })
      ).status,
    ).toBe(400);

    // The metrics count the two production executions (one failed), not the failed test.
    type Totals = { totals: { executions: { succeeded: number; failed: number } } };
    const totals = await eventually(async () => {
      const body = await expectJson<Totals>(
        await call("GET", "/v1/manage/metrics", { token: ws.ownerToken }),
        200,
      );
      const { succeeded, failed: failures } = body.totals.executions;
      return succeeded === 1 && failures >= 1 ? body.totals.executions : undefined;
    });
    expect(totals).toEqual({ succeeded: 1, failed: 1 });
  });
});
