/**
 * Workflow management (docs/api/manage.md, docs/api/webhooks.md): definitions validated with every problem at once, the
 * defaults of spec 2.5, slugs, roles, start/stop, and the executions list.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import {
  call,
  errorCode,
  eventually,
  expectJson,
  seedWorkspace,
  type Workspace,
} from "../helpers/api";
import { createWorkflow, hook, type WorkflowView } from "../helpers/workflows";

type Problem = { field: string; code: string; message: string };
type ErrorBody = { error: { code: string; details: Problem[] } };

let ws: Workspace;
beforeAll(async () => {
  ws = await seedWorkspace();
});

const post = (body: unknown, token = ws.ownerToken) =>
  call("POST", "/v1/manage/workflows", { token, body });

describe("definition validation lists every problem at once", () => {
  it("without a trigger: unknown type, duplicate key, missing node, cycle, bad reference, bad method", async () => {
    const response = await post({
      name: "Broken",
      slug: "broken",
      nodes: [
        { key: "a", type: "set", fields: { x: "{{later.body.x}}" } },
        { key: "b", type: "set", fields: {} },
        { key: "b", type: "teleport" },
        { key: "later", type: "http_request", url: "https://example.com", method: "FETCH" },
      ],
      connections: [
        { from: "a", to: "later" },
        { from: "later", to: "a" },
        { from: "a", to: "ghost" },
      ],
    });
    const body = await expectJson<ErrorBody>(response, 400);
    expect(body.error.code).toBe("invalid_request");
    const codes = new Set(body.error.details.map((d) => d.code));
    for (const code of [
      "no_trigger",
      "unknown_node_type",
      "duplicate_key",
      "unknown_node",
      "cycle",
      "invalid_http_method",
    ]) {
      expect(codes, code).toContain(code);
    }
    for (const detail of body.error.details) {
      expect(detail).toEqual({
        field: expect.any(String),
        code: expect.any(String),
        message: expect.any(String),
      });
    }
  });

  it("with a trigger: a template that references a node that does not precede it, a bad webhook method", async () => {
    const body = await expectJson<ErrorBody>(
      await post({
        name: "Broken",
        slug: "broken-2",
        nodes: [
          { type: "webhook", httpMethod: "CONNECT", responseTimeoutSeconds: 101 },
          { key: "first", type: "set", fields: { v: "{{second.x}}" } },
          { key: "second", type: "set", fields: { x: 1 } },
          { key: "check", type: "condition", left: "{{webhook_1.body.a}}", operator: "like" },
        ],
        connections: [
          { from: "webhook_1", to: "first" },
          { from: "first", to: "second" },
          { from: "second", to: "check", branch: "true" },
        ],
      }),
      400,
    );
    const found = body.error.details.map((d) => [d.field, d.code]);
    expect(found).toEqual(
      expect.arrayContaining([
        ["nodes[0].httpMethod", "invalid_http_method"],
        ["nodes[0].responseTimeoutSeconds", "out_of_range"],
        ["nodes[1].fields.v", "invalid_reference"],
        ["nodes[3].operator", "invalid_option"],
      ]),
    );
    expect(found.map(([, code]) => code)).toContain("unexpected_branch");
    expect(await listSlugs()).not.toContain("broken-2");
  });

  it("checks the envelope too: name, slug and unknown fields", async () => {
    const body = await expectJson<ErrorBody>(
      await post({ slug: "Not A Slug", nodes: [], extra: 1 }),
      400,
    );
    expect(body.error.details.map((d) => [d.field, d.code])).toEqual(
      expect.arrayContaining([
        ["name", "required"],
        ["slug", "invalid_format"],
        ["extra", "unknown_field"],
      ]),
    );
  });

  it("refuses a node's or connection's own __proto__ (and the like) as unknown_field", async () => {
    const flow = await createWorkflow(ws, { nodes: [{ type: "webhook" }] }, { start: false });
    const json = { "content-type": "application/json" };
    // Sent as text: only JSON.parse makes an own `__proto__` key (an object literal sets the prototype).
    const text = (node: string, slug: string) =>
      `{"name":"Proto","slug":"${slug}","nodes":[{"type":"webhook"},${node}],"connections":[]}`;
    for (const [key, slug] of [
      ["__proto__", "proto-a"],
      ["constructor", "proto-b"],
      ["prototype", "proto-c"],
    ] as const) {
      const node = `{"type":"set","fields":{},"${key}":{"fields":{"x":1}}}`;
      for (const method of ["POST", "PUT"] as const) {
        const path = method === "POST" ? "/v1/manage/workflows" : `/v1/manage/workflows/${flow.id}`;
        const body = await expectJson<ErrorBody>(
          await call(method, path, { token: ws.ownerToken, body: text(node, slug), headers: json }),
          400,
        );
        expect([method, key, body.error.code, body.error.details]).toEqual([
          method,
          key,
          "invalid_request",
          [{ field: `nodes[1].${key}`, code: "unknown_field", message: expect.any(String) }],
        ]);
      }
    }
    const edge = '{"from":"webhook_1","to":"set_1","__proto__":{"branch":"true"}}';
    const connection = await expectJson<ErrorBody>(
      await call("POST", "/v1/manage/workflows", {
        token: ws.ownerToken,
        headers: json,
        body: text('{"type":"set","fields":{}}', "proto-d").replace(
          '"connections":[]',
          `"connections":[${edge}]`,
        ),
      }),
      400,
    );
    expect(connection.error.details).toEqual([
      { field: "connections[0].__proto__", code: "unknown_field", message: expect.any(String) },
    ]);
    expect(await listSlugs()).not.toContain("proto-a");
  });

  it("names a conversation_event trigger's unknown agent", async () => {
    const body = await expectJson<ErrorBody>(
      await post({
        name: "Events",
        slug: "events-bad",
        nodes: [{ type: "conversation_event", agentId: "agt_nope" }],
      }),
      400,
    );
    expect(body.error.details).toEqual([
      { field: "nodes[0].agentId", code: "unknown_agent", message: expect.any(String) },
    ]);
    await expectJson(
      await post({
        name: "Events",
        slug: "events-ok",
        nodes: [{ type: "conversation_event", agentId: ws.agentId }],
      }),
      201,
    );
  });
});

async function listSlugs(): Promise<string[]> {
  const list = await expectJson<{ data: WorkflowView[] }>(
    await call("GET", "/v1/manage/workflows", { token: ws.ownerToken }),
    200,
  );
  return list.data.map((w) => w.slug);
}

describe("create, read, replace, delete", () => {
  it("fills in the defaults of spec 2.5 and numbers keyless webhooks", async () => {
    const created = await expectJson<WorkflowView>(
      await post({
        name: "Two hooks",
        slug: "two-hooks",
        nodes: [{ type: "webhook" }, { type: "webhook", httpMethod: "GET" }],
      }),
      201,
    );
    expect(created.status).toBe("stopped");
    expect(created.id).toMatch(/^wf_[0-9A-Za-z]{22}$/);
    expect(created.nodes).toEqual([
      {
        key: "webhook_1",
        type: "webhook",
        name: "Webhook",
        httpMethod: "POST",
        responseMode: "immediate",
        responseTimeoutSeconds: 25,
        rateLimitPerMinute: 1200,
      },
      {
        key: "webhook_2",
        type: "webhook",
        name: "Webhook",
        httpMethod: "GET",
        responseMode: "immediate",
        responseTimeoutSeconds: 25,
        rateLimitPerMinute: 1200,
      },
    ]);
    expect(Object.keys(created.webhookUrls)).toEqual(["webhook_1", "webhook_2"]);
    expect(created.webhookUrls.webhook_2).toBe(
      `https://edge.test/webhooks/${ws.slug}/two-hooks/webhook_2`,
    );
  });

  it("keeps each node's canvas position as given, and leaves it out when none was", async () => {
    const created = await expectJson<WorkflowView>(
      await post({
        name: "Placed",
        slug: "placed",
        nodes: [
          { type: "webhook", position: { x: -120.5, y: 40 } },
          { key: "vars", type: "set", fields: {} },
        ],
        connections: [{ from: "webhook_1", to: "vars" }],
      }),
      201,
    );
    expect(created.nodes[0]?.position).toEqual({ x: -120.5, y: 40 });
    expect(created.nodes[1]).not.toHaveProperty("position");
    const read = await call("GET", `/v1/manage/workflows/${created.id}`, { token: ws.ownerToken });
    expect((await expectJson<WorkflowView>(read, 200)).nodes[0]?.position).toEqual({
      x: -120.5,
      y: 40,
    });
  });

  it("refuses a taken slug with 409 slug_taken, on create and on replace", async () => {
    const first = await createWorkflow(
      ws,
      { nodes: [{ type: "webhook" }] },
      { slug: "taken", start: false },
    );
    expect(
      await errorCode(await post({ name: "Again", slug: "taken", nodes: [{ type: "webhook" }] })),
    ).toBe("slug_taken");
    const other = await createWorkflow(ws, { nodes: [{ type: "webhook" }] }, { start: false });
    const replace = await call("PUT", `/v1/manage/workflows/${other.id}`, {
      token: ws.ownerToken,
      body: { name: "x", slug: "taken", nodes: [{ type: "webhook" }] },
    });
    expect(replace.status).toBe(409);
    expect(first.slug).toBe("taken");
  });

  it("members read but do not write; widget keys get 403 insufficient_scope; other workspaces see 404", async () => {
    const member = await expectJson<{ memberToken: string }>(
      await call("POST", "/v1/manage/members", {
        token: ws.ownerToken,
        body: { email: "reader@example.com", name: "Rita Reader", role: "member" },
      }),
      201,
    );
    const flow = await createWorkflow(ws, { nodes: [{ type: "webhook" }] }, { start: false });
    expect(
      (await call("GET", `/v1/manage/workflows/${flow.id}`, { token: member.memberToken })).status,
    ).toBe(200);
    expect(
      await errorCode(
        await post(
          { name: "m", slug: "by-member", nodes: [{ type: "webhook" }] },
          member.memberToken,
        ),
      ),
    ).toBe("insufficient_scope");
    expect(
      await errorCode(
        await call("POST", `/v1/manage/workflows/${flow.id}/start`, { token: member.memberToken }),
      ),
    ).toBe("insufficient_scope");
    expect(
      await errorCode(await call("GET", "/v1/manage/workflows", { token: ws.widgetKey })),
    ).toBe("insufficient_scope");
    const stranger = await seedWorkspace();
    for (const path of [
      `/v1/manage/workflows/${flow.id}`,
      `/v1/manage/workflows/${flow.id}/executions`,
    ]) {
      expect(await errorCode(await call("GET", path, { token: stranger.ownerToken }))).toBe(
        "not_found",
      );
    }
  });

  it("deletes a workflow with its executions", async () => {
    const flow = await createWorkflow(ws, { nodes: [{ type: "webhook" }] });
    expect((await hook(flow.webhookUrls.webhook_1 as string, { body: {} })).status).toBe(200);
    const runner = env.WORKFLOW_RUNNER.get(env.WORKFLOW_RUNNER.idFromName(flow.id));
    const stored = () =>
      runInDurableObject(runner, async (_instance, state) => (await state.storage.list()).size);
    // The call's records are written in batches of 10 ms: wait for them.
    await eventually(async () => ((await stored()) > 0 ? true : undefined));
    expect(await stored()).toBeGreaterThan(0);
    await expectJson(
      await call("DELETE", `/v1/manage/workflows/${flow.id}`, { token: ws.ownerToken }),
      204,
    );
    expect(
      (await call("GET", `/v1/manage/workflows/${flow.id}`, { token: ws.ownerToken })).status,
    ).toBe(404);
    expect(
      (await call("DELETE", `/v1/manage/workflows/${flow.id}`, { token: ws.ownerToken })).status,
    ).toBe(404);
    expect(await stored()).toBe(0);
  });
});

describe("executions list", () => {
  it("pages newest first with limit and cursor, every execution once", async () => {
    const flow = await createWorkflow(ws, { nodes: [{ type: "webhook" }] });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(
        (
          await expectJson<{ executionId: string }>(
            await hook(flow.webhookUrls.webhook_1 as string, { body: { i } }),
            200,
          )
        ).executionId,
      );
    }
    const base = `/v1/manage/workflows/${flow.id}/executions`;
    type ExecutionPage = { data: { id: string }[]; hasMore: boolean; nextCursor: string | null };
    const first = await expectJson<ExecutionPage>(
      await call("GET", `${base}?limit=2`, { token: ws.ownerToken }),
      200,
    );
    expect(first.data.map((e) => e.id)).toEqual([ids[2], ids[1]]);
    expect(first.hasMore).toBe(true);
    // Opaque: not the id the old `startingAfter` took.
    expect(first.nextCursor).toEqual(expect.any(String));
    expect(first.nextCursor).not.toBe(ids[1]);
    const second = await expectJson<ExecutionPage>(
      await call("GET", `${base}?limit=2&cursor=${first.nextCursor}`, { token: ws.ownerToken }),
      200,
    );
    expect(second).toEqual({
      data: [expect.objectContaining({ id: ids[0] })],
      hasMore: false,
      nextCursor: null,
    });
    for (const query of [
      "limit=0",
      `startingAfter=${ids[1]}`,
      "cursor=bm9wZQ",
      `cursor=${ids[1]}`,
    ]) {
      const refused = await call("GET", `${base}?${query}`, { token: ws.ownerToken });
      expect([query, await errorCode(refused)]).toEqual([query, "invalid_request"]);
    }
    expect(
      await errorCode(await call("GET", `${base}/exe_unknown`, { token: ws.ownerToken })),
    ).toBe("not_found");
  });
});
