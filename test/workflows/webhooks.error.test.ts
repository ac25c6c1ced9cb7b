/**
 * Every refusal of the webhook receiver (docs/api/webhooks.md): 404 for unknown and stopped alike, 405 with
 * Allow, 413 over 1 MiB, 422 malformed JSON, 429 exactly at the node's limit, 500 and 504 of lastNode,
 * and that changes made through the management API take effect at once.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call, expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import { createWorkflow, execution, hook, type WorkflowView } from "../helpers/workflows";

type ErrorBody = {
  error: { code: string; message: string; details: Record<string, unknown>[]; requestId: string };
};

const SIMPLE = (webhook: Record<string, unknown> = {}) => ({
  nodes: [
    { type: "webhook", ...webhook },
    { key: "done", type: "set", fields: { ok: true } },
  ],
  connections: [{ from: "webhook_1", to: "done" }],
});

let ws: Workspace;
let flow: WorkflowView;
let url: string;

beforeAll(async () => {
  ws = await seedWorkspace();
  flow = await createWorkflow(ws, SIMPLE());
  url = flow.webhookUrls.webhook_1 as string;
});

describe("404 webhook_not_found", () => {
  it("is the same for an unknown URL and a stopped workflow", async () => {
    const stopped = await createWorkflow(ws, SIMPLE(), { start: false });
    const base = `https://edge.test/webhooks/${ws.slug}`;
    const urls = [
      `https://edge.test/webhooks/no-such-workspace/${flow.slug}/webhook_1`,
      `${base}/no-such-workflow/webhook_1`,
      `${base}/${flow.slug}/no_such_node`,
      `${base}/${flow.slug}/done`, // a node that is not a webhook
      stopped.webhookUrls.webhook_1 as string,
    ];
    const bodies: Omit<ErrorBody["error"], "requestId">[] = [];
    for (const target of urls) {
      const body = await expectJson<ErrorBody>(await hook(target, { body: {} }), 404);
      const { requestId, ...rest } = body.error;
      expect(requestId).toMatch(/^req_/);
      bodies.push(rest);
    }
    expect(bodies[0]).toEqual({
      code: "webhook_not_found",
      message: "No running workflow listens at this URL.",
      details: [],
    });
    for (const body of bodies) expect(body).toEqual(bodies[0]);
  });

  it("stop takes effect at once, start again at once", async () => {
    const own = await createWorkflow(ws, SIMPLE());
    const target = own.webhookUrls.webhook_1 as string;
    expect((await hook(target, { body: {} })).status).toBe(200);
    await expectJson(
      await call("POST", `/v1/manage/workflows/${own.id}/stop`, { token: ws.ownerToken }),
      200,
    );
    expect((await hook(target, { body: {} })).status).toBe(404);
    await expectJson(
      await call("POST", `/v1/manage/workflows/${own.id}/start`, { token: ws.ownerToken }),
      200,
    );
    expect((await hook(target, { body: {} })).status).toBe(200);
  });

  it("follows a slug change and a deleted workflow's slug taken over by a new one", async () => {
    const own = await createWorkflow(ws, SIMPLE(), { slug: "moving" });
    const oldUrl = own.webhookUrls.webhook_1 as string;
    expect((await hook(oldUrl, { body: {} })).status).toBe(200);
    const moved = await expectJson<WorkflowView>(
      await call("PUT", `/v1/manage/workflows/${own.id}`, {
        token: ws.ownerToken,
        body: { name: "Moved", slug: "moved", ...SIMPLE() },
      }),
      200,
    );
    expect(moved.status).toBe("running");
    expect((await hook(oldUrl, { body: {} })).status).toBe(404);
    expect((await hook(moved.webhookUrls.webhook_1 as string, { body: {} })).status).toBe(200);

    await expectJson(
      await call("DELETE", `/v1/manage/workflows/${own.id}`, { token: ws.ownerToken }),
      204,
    );
    expect((await hook(moved.webhookUrls.webhook_1 as string, { body: {} })).status).toBe(404);
    const successor = await createWorkflow(ws, SIMPLE({ responseMode: "lastNode" }), {
      slug: "moved",
    });
    const answer = await hook(successor.webhookUrls.webhook_1 as string, { body: {} });
    expect(await expectJson(answer, 200)).toEqual({ ok: true });
  });
});

describe("405, 413, 422", () => {
  it("a wrong method gets 405 with Allow", async () => {
    for (const method of ["GET", "PUT", "DELETE", "PATCH", "HEAD"]) {
      const response = await hook(url, { method });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
      if (method !== "HEAD")
        expect(((await response.json()) as ErrorBody).error.code).toBe("method_not_allowed");
    }
  });

  it("1 MiB passes, one byte more gets 413 payload_too_large, also chunked", async () => {
    const exact = "x".repeat(1_048_576);
    expect(
      (await hook(url, { headers: { "content-type": "text/plain" }, body: exact })).status,
    ).toBe(200);
    const over = await hook(url, { headers: { "content-type": "text/plain" }, body: `${exact}x` });
    expect((await expectJson<ErrorBody>(over, 413)).error.code).toBe("payload_too_large");
    const chunks = [new Uint8Array(600_000).fill(65), new Uint8Array(600_000).fill(66)];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const chunked = await hook(url, { headers: { "content-type": "text/plain" }, body: stream });
    expect((await expectJson<ErrorBody>(chunked, 413)).error.code).toBe("payload_too_large");
  });

  it("malformed JSON gets 422 invalid_body and starts nothing", async () => {
    const before = await listCount(flow.id);
    const response = await hook(url, {
      headers: { "content-type": "application/json" },
      body: '{"a":',
    });
    const body = await expectJson<ErrorBody>(response, 422);
    expect(body.error.code).toBe("invalid_body");
    expect(body.error.details).toEqual([]);
    expect(response.headers.get("x-execution-id")).toBeNull();
    expect(await listCount(flow.id)).toBe(before);
  });

  it("checks in order: 404 before 405 before 422", async () => {
    const stopped = await createWorkflow(ws, SIMPLE(), { start: false });
    const bad = { headers: { "content-type": "application/json" }, body: "{" };
    expect(
      (await hook(stopped.webhookUrls.webhook_1 as string, { ...bad, method: "PUT" })).status,
    ).toBe(404);
    expect((await hook(url, { ...bad, method: "PUT" })).status).toBe(405);
  });
});

async function listCount(workflowId: string): Promise<number> {
  const page = await expectJson<{ data: unknown[] }>(
    await call("GET", `/v1/manage/workflows/${workflowId}/executions?limit=100`, {
      token: ws.ownerToken,
    }),
    200,
  );
  return page.data.length;
}

describe("429 rate_limited", () => {
  it("accepts exactly rateLimitPerMinute calls per node, under concurrency, then Retry-After", async () => {
    const limited = await createWorkflow(ws, SIMPLE({ rateLimitPerMinute: 5 }));
    const target = limited.webhookUrls.webhook_1 as string;
    const responses = await Promise.all(
      Array.from({ length: 9 }, () => hook(target, { body: {} })),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429, 429]);
    const refused = responses.find((r) => r.status === 429) as Response;
    expect((await expectJson<ErrorBody>(refused, 429)).error.code).toBe("rate_limited");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await listCount(limited.id)).toBe(5);
    // The limit is per node: another workflow's node is not affected.
    expect((await hook(url, { body: {} })).status).toBe(200);
  });
});

describe("lastNode 504 workflow_timeout", () => {
  it("answers 504 with the executionId after responseTimeoutSeconds; the run goes on, recorded", async () => {
    const slow = await createWorkflow(ws, {
      nodes: [
        { type: "webhook", responseMode: "lastNode", responseTimeoutSeconds: 1 },
        { key: "pause", type: "wait", seconds: 3600 },
        { key: "done", type: "set", fields: { ok: true } },
      ],
      connections: [
        { from: "webhook_1", to: "pause" },
        { from: "pause", to: "done" },
      ],
    });
    const response = await hook(slow.webhookUrls.webhook_1 as string, { body: {} });
    const body = await expectJson<ErrorBody>(response, 504);
    expect(body.error.code).toBe("workflow_timeout");
    const executionId = response.headers.get("x-execution-id") as string;
    expect(body.error.details).toEqual([{ executionId }]);
    const record = await execution(ws, slow.id, executionId);
    expect(record.status).toBe("running");
    expect(record.nodes.map((n) => [n.key, n.status])).toEqual([
      ["webhook_1", "succeeded"],
      ["pause", "waiting"],
    ]);
  });
});
