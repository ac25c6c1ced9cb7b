/**
 * Capture on a webhook node's test URL (docs/webhooks.md#capture): only while armed (count and
 * time), even for a stopped workflow; calls become samples and nothing runs.
 */
import { describe, expect, it } from "vitest";
import { call, errorCode, expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import { createWorkflow, executionCount, hook } from "../helpers/workflows";

type Armed = { nodeKey: string; testUrl: string; remaining: number; expiresAt: string };
type Samples = { data: { id: string; capturedAt: string; output: Record<string, unknown> }[] };

const arm = (ws: Workspace, workflowId: string, body: object, key = "webhook_1", token?: string) =>
  call("POST", `/v1/manage/workflows/${workflowId}/nodes/${key}/capture`, {
    token: token ?? ws.ownerToken,
    body,
  });
const samples = async (ws: Workspace, workflowId: string) =>
  expectJson<Samples>(
    await call("GET", `/v1/manage/workflows/${workflowId}/nodes/webhook_1/samples`, {
      token: ws.ownerToken,
    }),
    200,
  );

describe("capture on the test URL", () => {
  it("stores the next `count` calls of a stopped workflow as samples and runs nothing", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(
      ws,
      {
        nodes: [
          { type: "webhook" },
          { key: "out", type: "set", fields: { id: "{{webhook_1.body.id}}" } },
        ],
        connections: [{ from: "webhook_1", to: "out" }],
      },
      { start: false },
    );
    const testUrl = (flow.webhookUrls.webhook_1 as string).replace("/webhooks/", "/webhook-test/");
    // Not armed: 404.
    expect(await errorCode(await hook(testUrl, { body: { id: 0 } }))).toBe("webhook_not_found");

    const armed = await expectJson<Armed>(await arm(ws, flow.id, { count: 2 }), 201);
    expect(armed).toMatchObject({ nodeKey: "webhook_1", testUrl, remaining: 2 });
    expect(Date.parse(armed.expiresAt) - Date.now()).toBeGreaterThan(590_000);

    // The node's method applies; a refused call does not use up the arming.
    expect((await hook(testUrl, { method: "PUT", body: {} })).status).toBe(405);
    const answers = await Promise.all(
      [1, 2, 3, 4].map((id) =>
        hook(`${testUrl}?q=${id}`, {
          headers: { authorization: "Bearer hidden", "x-source": "shop" },
          body: { id },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 200, 404, 404]);
    const captured = answers.find((answer) => answer.status === 200);
    expect(await captured?.json()).toEqual({ captured: true });

    const { data } = await samples(ws, flow.id);
    expect(data).toHaveLength(2);
    const [newest] = data;
    expect(newest?.output).toMatchObject({
      method: "POST",
      headers: { authorization: "[redacted]", "x-source": "shop" },
    });
    expect(newest?.id).toMatch(/^smp_/);
    expect(data.map((sample) => (sample.output.body as { id: number }).id)).toEqual(
      data.map((sample) => Number((sample.output.queryParams as { q: string }).q)),
    );
    // Nothing ran, and the production URL of the stopped workflow is still 404.
    expect(await executionCount(ws, flow.id)).toBe(0);
    expect((await hook(flow.webhookUrls.webhook_1 as string, { body: {} })).status).toBe(404);
  });

  it("ends when its time is up; arming again replaces the arming", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, { nodes: [{ type: "webhook" }] });
    const testUrl = (flow.webhookUrls.webhook_1 as string).replace("/webhooks/", "/webhook-test/");
    await expectJson(await arm(ws, flow.id, { count: 5, ttlSeconds: 1 }), 201);
    expect((await hook(testUrl, { body: { n: 1 } })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await hook(testUrl, { body: { n: 2 } })).status).toBe(404);
    await expectJson(await arm(ws, flow.id, {}), 201);
    expect((await hook(testUrl, { body: { n: 3 } })).status).toBe(200);
    expect((await hook(testUrl, { body: { n: 4 } })).status).toBe(404);
    expect((await samples(ws, flow.id)).data.map((s) => s.output.body)).toEqual([
      { n: 3 },
      { n: 1 },
    ]);
    // A running workflow's production URL is unaffected by capture.
    expect((await hook(flow.webhookUrls.webhook_1 as string, { body: {} })).status).toBe(200);
  });

  it("refuses unknown nodes, bad settings and members who cannot change workflows", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, {
      nodes: [{ type: "webhook" }, { key: "out", type: "set", fields: {} }],
      connections: [{ from: "webhook_1", to: "out" }],
    });
    expect(await errorCode(await arm(ws, flow.id, {}, "nope"))).toBe("not_found");
    expect(await errorCode(await arm(ws, flow.id, {}, "out"))).toBe("not_found");
    expect(await errorCode(await arm(ws, "wf_unknown", {}))).toBe("not_found");
    const bad = await arm(ws, flow.id, { count: 21, ttlSeconds: 3_601 });
    expect(bad.status).toBe(400);
    const fields = ((await bad.json()) as { error: { details: { field: string }[] } }).error
      .details;
    expect(fields.map((detail) => detail.field).sort()).toEqual(["count", "ttlSeconds"]);
    const invited = await expectJson<{ memberToken: string }>(
      await call("POST", "/v1/manage/members", {
        token: ws.ownerToken,
        body: { email: `viewer-${Date.now()}@example.test`, name: "Viewer", role: "member" },
      }),
      201,
    );
    const byMember = await arm(ws, flow.id, {}, "webhook_1", invited.memberToken);
    expect(byMember.status).toBe(403);
    const read = await call("GET", `/v1/manage/workflows/${flow.id}/nodes/webhook_1/samples`, {
      token: invited.memberToken,
    });
    expect(await expectJson(read, 200)).toEqual({ data: [], hasMore: false, nextCursor: null });
  });
});
