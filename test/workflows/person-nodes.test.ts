/**
 * The nodes that reach the person, run by the runner (docs/workflows.md): create_link as the
 * launch API creates (its rules and codes, the pending cap, `link.created`), its token usable by
 * later templates but `[redacted]` in everything shown; send_message into the link's conversation
 * (a link not yet opened given its session); end_conversation as the API's end. The Conversation's
 * side of send_message is a test double (test/helpers/conversation-double.ts).
 */
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { call, expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import { lookUp, open } from "../helpers/chat";
import {
  installConversationDouble,
  posts,
  refusing,
  removeConversationDouble,
} from "../helpers/conversation-double";
import { registerReceiver } from "../helpers/events";
import { insertPendingLinks } from "../helpers/seed-links";
import { storedState } from "../helpers/storage-scan";
import { createWorkflow, type ExecutionView, execution, hook } from "../helpers/workflows";

let ws: Workspace;
beforeAll(async () => {
  ws = await seedWorkspace();
  await registerReceiver(ws); // events are stored for a workspace with an endpoint
  installConversationDouble();
});
afterAll(removeConversationDouble);

const runner = (workflowId: string) =>
  env.WORKFLOW_RUNNER.get(env.WORKFLOW_RUNNER.idFromName(workflowId));

/** The link node's settings for the seeded agent, from the call's body. */
const linkNode = (extra: object = {}) => ({
  key: "link",
  type: "create_link",
  flowId: "{{webhook_1.body.agent}}",
  channelId: "{{webhook_1.body.channel}}",
  parameters: { plan: "{{webhook_1.body.plan}}" },
  participant: { name: "Ann", externalId: "{{webhook_1.body.customer}}" },
  metadata: { invoice: "{{webhook_1.body.invoice}}" },
  ...extra,
});

/** webhook (lastNode) → `nodes`, in a chain; the execution once finished, and the call's answer. */
async function run(nodes: object[], body: object = {}, target = ws) {
  const keys = ["webhook_1", ...nodes.map((node) => (node as { key: string }).key)];
  const flow = await createWorkflow(target, {
    nodes: [{ type: "webhook", responseMode: "lastNode" }, ...nodes],
    connections: keys.slice(1).map((to, i) => ({ from: keys[i], to })),
  });
  const callBody = {
    agent: target.agentId,
    channel: target.channelId,
    plan: "basic",
    customer: "cus_42",
    invoice: "in_7",
    ...body,
  };
  const answer = await hook(flow.webhookUrls.webhook_1 as string, { body: callBody });
  const executionId = answer.headers.get("x-execution-id") ?? "";
  const text = await answer.text();
  const record = await vi.waitFor(
    async () => {
      const found = await execution(target, flow.id, executionId);
      if (found.status === "running") throw new Error("still running");
      return found;
    },
    { timeout: 10_000, interval: 20 },
  );
  return { flow, record, answer: text, status: answer.status };
}

const nodeOf = (record: ExecutionView, key: string) =>
  record.nodes.find((node) => node.key === key);
const tokenOf = (url: string) => url.split("#launch=")[1] ?? "";

const linkRow = (id: string) =>
  env.DB.prepare("SELECT * FROM links WHERE id = ?").bind(id).first<Record<string, unknown>>();

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

describe("create_link", () => {
  it("creates a link as the launch API does; the token works but is shown nowhere", async () => {
    const logged: string[] = [];
    const spies = (["log", "info", "warn", "error", "debug"] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        logged.push(
          args.map((arg) => (typeof arg === "string" ? arg : JSON.stringify(arg))).join(" "),
        );
      }),
    );
    const { flow, record, answer } = await run([
      linkNode(),
      { key: "mail", type: "set", fields: { body: "Pay here: {{link.url}}" } },
    ]).finally(() => {
      for (const spy of spies) spy.mockRestore();
    });
    expect(record.status).toBe("succeeded");
    // The lastNode caller (the customer's own server, as the launch API's caller) gets the URL.
    const { body } = JSON.parse(answer) as { body: string };
    const token = tokenOf(body);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const created = nodeOf(record, "link")?.output as Record<string, string>;
    expect(created.id).toMatch(/^lnk_[0-9a-f]{24}$/);
    expect(created).toMatchObject({
      status: "pending",
      url: "https://edge.test/chat#launch=[redacted]",
    });
    expect(created.embedHtml).toContain("[redacted]");
    expect(nodeOf(record, "mail")?.output).toEqual({
      body: "Pay here: https://edge.test/chat#launch=[redacted]",
    });
    expect(JSON.stringify(record)).not.toContain(token);

    // The link, as the API's look-up shows it; its token is the one in the URL.
    const link = await expectJson<Record<string, unknown>>(
      await call("GET", `/v1/widget/launches/${created.id}`, { token: ws.widgetKey }),
      200,
    );
    expect(link).toMatchObject({
      status: "pending",
      flowId: ws.agentId,
      participant: { name: "Ann", externalId: "cus_42" },
      metadata: { invoice: "in_7" },
      conversation: null,
    });
    const row = await linkRow(created.id ?? "");
    expect(row?.token_hash).toBe(await sha256Hex(token));
    expect(row?.created_by_key).toBe(flow.id);
    const events = await env.DB.prepare("SELECT type FROM events WHERE link_id = ?")
      .bind(created.id)
      .all<{ type: string }>();
    expect(events.results.map((event) => event.type)).toEqual(["link.created"]);

    // Nothing stored or listed holds it: the runner's storage, the request log, the log lines.
    const requests = await call("GET", `/v1/manage/workflows/${flow.id}/requests`, {
      token: ws.ownerToken,
    });
    expect(await requests.text()).not.toContain(token);
    await runInRunner(flow.id);
    expect((await storedState(runner(flow.id))).text).not.toContain(token);
    expect(logged.join("\n")).not.toContain(token);
    // The person opens it with the token.
    expect((await open(token ?? "")).sessionId).toMatch(/^ses_/);
  });

  it("fails with the API's code and details when the launch rules refuse the link", async () => {
    const missing = await run([linkNode({ parameters: {} })]);
    expect(nodeOf(missing.record, "link")).toMatchObject({
      status: "failed",
      errorCode: "invalid_parameters",
      errorDetails: [{ code: "missing_required", name: "plan" }],
    });
    const channel = await run([linkNode()], { channel: "ch_nope" });
    expect(nodeOf(channel.record, "link")).toMatchObject({ errorCode: "widget_not_found" });
    const shape = await run([linkNode({ globalTask: "{{webhook_1.body.task}}" })], {
      task: "a".repeat(4_001),
    });
    expect(nodeOf(shape.record, "link")).toMatchObject({
      errorCode: "invalid_request",
      errorDetails: [expect.objectContaining({ field: "globalTask", code: "out_of_range" })],
    });
  });

  it("creates a new link in a replay: the replay is another execution", async () => {
    const { flow, record, answer } = await run([linkNode()]);
    const first = nodeOf(record, "link")?.output as { id: string } | undefined;
    const token = tokenOf((JSON.parse(answer) as { url: string }).url);
    const replayed = await expectJson<{ id: string }>(
      await call("POST", `/v1/manage/workflows/${flow.id}/executions/${record.id}/replay`, {
        token: ws.ownerToken,
        body: {},
      }),
      201,
    );
    const again = await vi.waitFor(
      async () => {
        const found = await execution(ws, flow.id, replayed.id);
        if (found.status === "running") throw new Error("still running");
        return found;
      },
      { timeout: 10_000, interval: 20 },
    );
    const second = nodeOf(again, "link")?.output as { id: string } | undefined;
    expect(second?.id).toMatch(/^lnk_/);
    expect(second?.id).not.toBe(first?.id);
    expect(await linkRow(second?.id ?? "")).toMatchObject({ status: "pending" });
    // The replay's input (the call) and record hold neither token.
    expect(JSON.stringify(again)).not.toContain(token);
    expect(JSON.stringify(again.nodes[0]?.output)).toBe(JSON.stringify(record.nodes[0]?.output));
  });

  it("counts against the workspace's cap of pending links", async () => {
    const full = await seedWorkspace();
    await insertPendingLinks(full.workspaceId, full.agentId, full.channelId, 10_000);
    const { record } = await run([linkNode()], {}, full);
    expect(nodeOf(record, "link")).toMatchObject({
      status: "failed",
      errorCode: "too_many_pending_links",
    });
  });
});

/** Writes the runner's pending saves, so a scan of its storage sees them. */
const runInRunner = async (workflowId: string) => {
  const { runInDurableObject } = await import("cloudflare:test");
  await runInDurableObject(runner(workflowId), (_instance, state) => state.storage.sync());
};

describe("send_message", () => {
  it("writes into the conversation of a link not yet opened, which opens on that session", async () => {
    const { record, answer } = await run([
      linkNode(),
      {
        key: "tell",
        type: "send_message",
        linkId: "{{link.id}}",
        text: "Invoice {{webhook_1.body.invoice}} failed.",
      },
      { key: "mail", type: "set", fields: { url: "{{link.url}}" } },
    ]);
    expect(record.status).toBe("succeeded");
    const linkId = (nodeOf(record, "link")?.output as { id: string } | undefined)?.id ?? "";
    const sent = nodeOf(record, "tell")?.output as { messageId: string; delivered: string };
    expect(sent).toEqual({
      messageId: expect.stringMatching(/^msg_[0-9a-f]{24}$/),
      delivered: "stored",
    });
    const post = posts.find((each) => each.message.id === sent.messageId);
    expect(post?.message).toEqual({ id: sent.messageId, text: "Invoice in_7 failed." });
    expect(post?.link).toMatchObject({ linkId, workspaceId: ws.workspaceId });
    // The link got its session and stays pending, unopened.
    const row = await linkRow(linkId);
    expect(row).toMatchObject({ status: "pending", started_at: null });
    expect(row?.session_id).toMatch(/^ses_/);
    expect((await lookUp(ws, linkId)).conversation).toBeNull();
    if (post?.sessionId) expect(post.sessionId).toBe(row?.session_id);
    // Opened, the conversation is the one written to: the session given before is kept.
    const token = tokenOf((JSON.parse(answer) as { url: string }).url);
    expect((await open(token ?? "")).sessionId).toBe(row?.session_id);
    expect((await lookUp(ws, linkId)).conversation?.sessionId).toBe(row?.session_id);
  });

  it("fails with conversation_unavailable for a revoked or ended link, not_found for none", async () => {
    const created = await expectJson<{ id: string }>(
      await call("POST", "/v1/widget/launches", {
        token: ws.widgetKey,
        body: { flowId: ws.agentId, channelId: ws.channelId, parameters: { plan: "basic" } },
      }),
      201,
    );
    const tell = (linkId: string) => ({ key: "tell", type: "send_message", linkId, text: "Hi" });
    refusing.set(created.id, "ended");
    const ended = await run([tell(created.id)]);
    expect(nodeOf(ended.record, "tell")).toMatchObject({
      status: "failed",
      errorCode: "conversation_unavailable",
      errorDetails: [{ reason: "ended" }],
    });
    refusing.delete(created.id);
    await call("DELETE", `/v1/widget/launches/${created.id}`, { token: ws.widgetKey });
    const revoked = await run([tell(created.id)]);
    expect(nodeOf(revoked.record, "tell")).toMatchObject({
      errorCode: "conversation_unavailable",
      errorDetails: [{ reason: "revoked" }],
    });
    const none = await run([tell("lnk_nothing")]);
    expect(nodeOf(none.record, "tell")).toMatchObject({ errorCode: "not_found" });
    const long = await run(
      [tell(created.id)].map((node) => ({ ...node, text: "{{webhook_1.body.long}}" })),
      {
        long: "a".repeat(2_001),
      },
    );
    expect(nodeOf(long.record, "tell")).toMatchObject({ errorCode: "invalid_request" });
  });
});

describe("end_conversation", () => {
  it("ends an opened link's conversation as the API does; a link never opened is refused", async () => {
    const { record } = await run([
      linkNode(),
      { key: "bye", type: "end_conversation", linkId: "{{link.id}}", reason: "paid" },
    ]);
    expect(nodeOf(record, "bye")).toMatchObject({ status: "failed", errorCode: "link_not_open" });

    const launched = await expectJson<{ id: string; token: string }>(
      await call("POST", "/v1/widget/launches", {
        token: ws.widgetKey,
        body: { flowId: ws.agentId, channelId: ws.channelId, parameters: { plan: "basic" } },
      }),
      201,
    );
    await open(launched.token);
    const ended = await run([
      { key: "bye", type: "end_conversation", linkId: launched.id, reason: "paid" },
    ]);
    expect(nodeOf(ended.record, "bye")).toMatchObject({
      status: "succeeded",
      output: { linkId: launched.id, ended: true, reason: "paid" },
    });
    expect(await lookUp(ws, launched.id)).toMatchObject({
      status: "ended",
      conversation: { status: "ended" },
    });
    const events = await env.DB.prepare(
      "SELECT type, body FROM events WHERE link_id = ? AND type = 'conversation.ended'",
    )
      .bind(launched.id)
      .all<{ type: string; body: string }>();
    expect(events.results).toHaveLength(1);
    expect(events.results[0]?.body).toContain('"reason":"server"');
  });
});
