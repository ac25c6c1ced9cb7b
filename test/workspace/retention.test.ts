/**
 * Retention (docs/security.md#retention): `PATCH /v1/manage/workspace {retention}` sets how long
 * the workspace keeps ended conversations' transcripts, finished executions, request log entries
 * and lifecycle events (1 to 3,650 days; documented defaults), and the objects' daily alarms
 * enforce it: two days on, with one day set, the ledger's sweep has erased the transcript and
 * deleted the events and deliveries, and the runner's has deleted the executions and log entries;
 * a workspace on the defaults keeps them. A workflow's messages to a link never opened go once it
 * expired or was revoked, and an ended link's analysis and rating comment go with its transcript.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { conversation } from "../../src/conversations/conversation/client";
import { linkLedger } from "../../src/launch/ledger/client";
import { call, eventually, expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import { connect, createLaunch, open } from "../helpers/chat";
import { expectError } from "../helpers/errors";
import { registerReceiver, storedDeliveries, storedEvents } from "../helpers/events";
import { storedState } from "../helpers/storage-scan";
import { workflowMessage } from "../helpers/workflow-chat";
import { createWorkflow, hook, type WorkflowView } from "../helpers/workflows";

const DAY = 86_400_000;

afterEach(() => {
  vi.useRealTimers();
});

type Settings = { retention: Record<string, number> };

async function setRetention(ws: Workspace, retention: Record<string, number>) {
  return expectJson<Settings>(
    await call("PATCH", "/v1/manage/workspace", { token: ws.ownerToken, body: { retention } }),
    200,
  );
}

/** A workspace with an ended conversation, its events delivered, and a called workflow. */
async function withHistory(): Promise<{ ws: Workspace; linkId: string; flow: WorkflowView }> {
  const ws = await seedWorkspace();
  await registerReceiver(ws);
  const link = await createLaunch(ws);
  const session = await open(link.token);
  const client = await connect(session.socketUrl as string);
  client.send({ type: "message", text: "keep me?" });
  await client.next("message");
  expect(
    (await call("POST", `/v1/widget/launches/${link.id}/end`, { token: ws.widgetKey })).status,
  ).toBe(204);
  const flow = await createWorkflow(ws, {
    nodes: [{ type: "webhook" }, { key: "done", type: "set", fields: { ok: true } }],
    connections: [{ from: "webhook_1", to: "done" }],
  });
  expect((await hook(flow.webhookUrls.webhook_1 as string, { body: {} })).status).toBe(200);
  await eventually(async () =>
    (await storedDeliveries(ws.workspaceId)).length > 0 ? true : undefined,
  );
  return { ws, linkId: link.id, flow };
}

const messagesOf = async (ws: Workspace, linkId: string) =>
  (
    await expectJson<{ conversation: { messages: unknown[] } | null }>(
      await call("GET", `/v1/manage/links/${linkId}`, { token: ws.ownerToken }),
      200,
    )
  ).conversation?.messages ?? [];

const listed = async (ws: Workspace, path: string) =>
  (await expectJson<{ data: unknown[] }>(await call("GET", path, { token: ws.ownerToken }), 200))
    .data.length;

describe("a workspace's retention", () => {
  it("shows the defaults, takes changes from Owners and Admins, and refuses what is out of range", async () => {
    const ws = await seedWorkspace();
    const shown = await expectJson<Settings & { id: string }>(
      await call("GET", "/v1/manage/workspace", { token: ws.ownerToken }),
      200,
    );
    expect(shown.id).toBe(ws.workspaceId);
    expect(shown.retention).toEqual({
      conversationDays: 365,
      executionDays: 90,
      requestLogDays: 7,
      eventDays: 30,
    });
    expect((await setRetention(ws, { eventDays: 3650 })).retention).toMatchObject({
      eventDays: 3650,
      executionDays: 90,
    });
    expect((await setRetention(ws, { executionDays: 1 })).retention).toMatchObject({
      eventDays: 3650,
      executionDays: 1,
    });
    for (const retention of [{ eventDays: 0 }, { eventDays: 3651 }, { eventDays: 1.5 }, { x: 1 }]) {
      await expectError(
        await call("PATCH", "/v1/manage/workspace", { token: ws.ownerToken, body: { retention } }),
        400,
        "invalid_request",
      );
    }
    const { memberToken } = await expectJson<{ memberToken: string }>(
      await call("POST", "/v1/manage/members", {
        token: ws.ownerToken,
        body: { email: "m@example.com", name: "M", role: "member" },
      }),
      201,
    );
    expect((await call("GET", "/v1/manage/workspace", { token: memberToken })).status).toBe(200);
    await expectError(
      await call("PATCH", "/v1/manage/workspace", {
        token: memberToken,
        body: { retention: { eventDays: 5 } },
      }),
      403,
      "insufficient_scope",
    );
  });

  it("is enforced by the ledger's and the runners' daily sweeps", async () => {
    const short = await withHistory();
    const kept = await withHistory();
    await setRetention(short.ws, {
      conversationDays: 1,
      executionDays: 1,
      requestLogDays: 1,
      eventDays: 1,
    });
    const runner = (flow: WorkflowView) =>
      env.WORKFLOW_RUNNER.get(env.WORKFLOW_RUNNER.idFromName(flow.id));
    // The ledger's first firing (a relay check, seconds after its first write) starts its clock.
    for (const { ws } of [short, kept])
      await runDurableObjectAlarm(linkLedger(env, ws.workspaceId));
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 2 * DAY + 60_000);
    for (const { ws, flow } of [short, kept]) {
      await runDurableObjectAlarm(linkLedger(env, ws.workspaceId));
      await runDurableObjectAlarm(runner(flow));
    }

    expect(await messagesOf(short.ws, short.linkId)).toEqual([]);
    expect(await storedEvents(short.ws.workspaceId)).toEqual([]);
    expect(await storedDeliveries(short.ws.workspaceId)).toEqual([]);
    const executions = `/v1/manage/workflows/${short.flow.id}/executions`;
    expect(await listed(short.ws, executions)).toBe(0);
    expect(await listed(short.ws, `/v1/manage/workflows/${short.flow.id}/requests`)).toBe(0);
    // The link itself stays, with its status and times.
    expect(
      (await call("GET", `/v1/widget/launches/${short.linkId}`, { token: short.ws.widgetKey }))
        .status,
    ).toBe(200);

    expect((await messagesOf(kept.ws, kept.linkId)).length).toBeGreaterThan(0);
    expect((await storedEvents(kept.ws.workspaceId)).length).toBeGreaterThan(0);
    expect(await listed(kept.ws, `/v1/manage/workflows/${kept.flow.id}/executions`)).toBe(1);
    expect(await listed(kept.ws, `/v1/manage/workflows/${kept.flow.id}/requests`)).toBe(1);
  });

  it("sweeps what workflows wrote to links never opened, and analyses and rating comments", async () => {
    const ws = await seedWorkspace();
    const ledger = linkLedger(env, ws.workspaceId);
    /** A pending link a workflow wrote to: given a session, a message kept for the next open. */
    const writtenTo = async () => {
      const link = await createLaunch(ws, { expiresInSeconds: 3600 });
      const session = await ledger.linkSession(ws.workspaceId, link.id, Date.now());
      if (!session.ok || session.value.sessionId === null) throw new Error("no session");
      const { sessionId, expiresAt } = session.value;
      const pending = { linkId: link.id, workspaceId: ws.workspaceId, expiresAt };
      const posted = await conversation(env, sessionId).postWorkflowMessage(
        workflowMessage("Your payment failed."),
        pending,
      );
      expect(posted.ok).toBe(true);
      return { id: link.id, sessionId };
    };
    const expired = await writtenTo();
    const revoked = await writtenTo();
    expect(
      (await call("DELETE", `/v1/widget/launches/${revoked.id}`, { token: ws.widgetKey })).status,
    ).toBe(204);
    const ended = await createLaunch(ws);
    await open(ended.token);
    expect(
      (await call("POST", `/v1/widget/launches/${ended.id}/end`, { token: ws.widgetKey })).status,
    ).toBe(204);
    const analysis = {
      status: "completed" as const,
      summary: "Wants a refund.",
      data: {},
      problems: [],
    };
    await ledger.recordAnalysis(ws.workspaceId, ended.id, analysis, Date.now());
    await ledger.rateLink(ws.workspaceId, ended.id, {
      score: 2,
      comment: "slow",
      ratedAt: Date.now(),
    });
    const lookUp = async () =>
      expectJson<{ conversation: { analysis?: unknown } | null }>(
        await call("GET", `/v1/widget/launches/${ended.id}`, { token: ws.widgetKey }),
        200,
      );
    // Looked up once, so the ledger caches the row with its analysis.
    expect((await lookUp()).conversation?.analysis).toEqual(analysis);
    const written = async (sessionId: string) =>
      (await storedState(conversation(env, sessionId))).text.includes("Your payment failed.");
    for (const link of [expired, revoked]) expect(await written(link.sessionId)).toBe(true);

    await setRetention(ws, { conversationDays: 1 });
    await runDurableObjectAlarm(ledger);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 2 * DAY + 3_600_000);
    await runDurableObjectAlarm(ledger);

    for (const link of [expired, revoked]) expect(await written(link.sessionId)).toBe(false);
    const row = await env.DB.prepare(
      "SELECT analysis, rating_score, rating_comment FROM links WHERE id = ?",
    )
      .bind(ended.id)
      .first();
    expect(row).toEqual({ analysis: null, rating_score: 2, rating_comment: null });
    expect((await lookUp()).conversation?.analysis).toBeUndefined();
  });
});
