/**
 * Analysis of ended conversations end to end (docs/api/conversations.md#analysis): the agent's
 * `analysis` setting, the scripted brain's stand-in, the analyses queue, the look-up, the
 * `conversation.analyzed` event to endpoints and to workflows, and erasure (the retries:
 * analysis-retries.test.ts).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type ConversationAnalysis, type LifecycleEvent, verifyEvent } from "../../sdk/src/index";
import { type AnalysisJob, requestAnalysis, runAnalysis } from "../../src/conversations/analysis";
import type { ConversationFacts } from "../../src/conversations/conversation/contract";
import type { AppBindings } from "../../src/platform/env";
import { call, eventually, expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import { connect, createLaunch, open } from "../helpers/chat";
import { eventsOfTypes, received, registerReceiver, storedEvents } from "../helpers/events";
import { createWorkflow, type ExecutionView } from "../helpers/workflows";

const ANALYSIS = {
  summary: true,
  fields: [
    { name: "order_id", type: "string", description: "The order the person asks about" },
    { name: "quantity", type: "integer", description: "How many items" },
    { name: "urgent", type: "boolean", description: "Whether it is urgent" },
    { name: "plan", type: "string", description: "Their plan", options: ["basic", "pro"] },
  ],
};

type Analysis = {
  status: string;
  summary: string | null;
  data: Record<string, unknown>;
  problems: { field: string; message: string }[];
};
type LookedUp = { conversation: { status: string; analysis?: Analysis } | null };

async function withAnalysis(ws: Workspace, analysis: unknown = ANALYSIS): Promise<void> {
  await expectJson(
    await call("PATCH", `/v1/manage/agents/${ws.agentId}`, {
      token: ws.ownerToken,
      body: { analysis },
    }),
    200,
  );
}

/** The link's row as D1 holds it: polled instead of the look-up, which the key's rate limit counts. */
async function row(id: string) {
  return env.DB.prepare("SELECT ended_at, analysis FROM links WHERE id = ?")
    .bind(id)
    .first<{ ended_at: number | null; analysis: string | null }>();
}

async function lookUp(ws: Workspace, id: string): Promise<LookedUp> {
  return expectJson(await call("GET", `/v1/widget/launches/${id}`, { token: ws.widgetKey }), 200);
}

/** Opens the link, writes `text`, waits for the reply, then ends the chat as the person. */
async function chatAndEnd(token: string, text: string): Promise<void> {
  const client = await connect((await open(token)).socketUrl as string);
  client.send({ type: "message", text });
  for (;;) {
    const frame = await client.next("message");
    if (frame.message?.role === "agent") break;
  }
  client.send({ type: "end" });
  await client.next("ended");
}

async function executions(ws: Workspace, workflowId: string): Promise<ExecutionView[]> {
  const page = await expectJson<{ data: ExecutionView[] }>(
    await call("GET", `/v1/manage/workflows/${workflowId}/executions`, { token: ws.ownerToken }),
    200,
  );
  return page.data;
}

describe("analysis after the end", () => {
  it("delivers summary and data as conversation.analyzed, to endpoints, the look-up and workflows", async () => {
    const ws = await seedWorkspace();
    await withAnalysis(ws);
    const receiver = await registerReceiver(ws);
    const flow = await createWorkflow(ws, {
      nodes: [
        { type: "conversation_event", agentId: ws.agentId, events: ["conversation.analyzed"] },
      ],
    });
    // A trigger naming no events keeps today's two: it is not started by the analysis.
    const defaults = await createWorkflow(ws, {
      nodes: [{ type: "conversation_event", agentId: ws.agentId }],
    });
    const link = await createLaunch(ws, { participant: { name: "Ada", externalId: "crm-7" } });
    await chatAndEnd(link.token, "order_id: A-17, quantity: lots, urgent: yes, plan: enterprise");

    // The end is not held: the look-up shows it ended before the analysis is there.
    await eventually(async () => ((await row(link.id))?.ended_at ? true : undefined));
    const ended = await lookUp(ws, link.id);
    expect(ended.conversation?.status).toBe("ended");
    expect(ended.conversation).not.toHaveProperty("analysis");

    const events = await eventsOfTypes(receiver, ["conversation.ended", "conversation.analyzed"]);
    const analyzed = events.get("conversation.analyzed") as unknown as {
      createdAt: string;
      data: { link: { id: string }; conversation: object; analysis: Analysis };
    };
    const expected = {
      status: "completed",
      summary: expect.stringContaining('first wrote "order_id: A-17'),
      // A value that fails its field is null and listed: `lots` is no integer, `enterprise` no option.
      data: { order_id: "A-17", quantity: null, urgent: true, plan: null },
      problems: [
        { field: "quantity", message: expect.any(String) },
        { field: "plan", message: expect.any(String) },
      ],
    };
    expect(analyzed.data.analysis).toEqual(expected);
    expect(analyzed.data.link.id).toBe(link.id);
    expect(analyzed.data.conversation).not.toHaveProperty("analysis");
    // The SDK's verifyEvent types it: `data.analysis` is a ConversationAnalysis.
    const delivery = (await received(receiver)).find((r) =>
      r.body.includes('"conversation.analyzed"'),
    );
    const verified = verifyEvent(delivery?.body ?? "", delivery?.headers ?? {}, receiver.secret);
    const typed: ConversationAnalysis | undefined = (verified as LifecycleEvent).data.analysis;
    expect(verified.type).toBe("conversation.analyzed");
    expect(typed?.data.order_id).toBe("A-17");
    // Its event comes after the end's.
    const endedAt = Date.parse(events.get("conversation.ended")?.createdAt ?? "");
    expect(Date.parse(analyzed.createdAt)).toBeGreaterThanOrEqual(endedAt);

    await eventually(async () => (await row(link.id))?.analysis ?? undefined);
    expect((await lookUp(ws, link.id)).conversation?.analysis).toEqual(expected);

    const runs = await eventually(async () => {
      const list = await executions(ws, flow.id);
      return list.length === 1 ? list : undefined;
    });
    expect(runs[0]?.nodes[0]?.output).toMatchObject({
      event: "conversation.analyzed",
      launchId: link.id,
      participant: { name: "Ada", externalId: "crm-7" },
      analysis: expected,
    });
    // Once per link: a repeated job changes nothing and starts nothing again.
    const job = await jobOf(ws, link.id);
    expect(await runAnalysis(env as AppBindings, job)).toEqual({ done: true });
    expect(
      (await storedEvents(ws.workspaceId)).filter((e) => e.type === "conversation.analyzed"),
    ).toHaveLength(1);
    expect(await executions(ws, flow.id)).toHaveLength(1);
    const started = (await executions(ws, defaults.id)).map((run) => run.nodes[0]?.output);
    expect(started.map((output) => (output as { event: string }).event).sort()).toEqual([
      "conversation.ended",
      "conversation.started",
    ]);
  }, 40_000);

  it("an agent without analysis gets none", async () => {
    const ws = await seedWorkspace();
    const receiver = await registerReceiver(ws);
    const link = await createLaunch(ws);
    await chatAndEnd(link.token, "Hello");
    await eventsOfTypes(receiver, ["conversation.ended"]);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await lookUp(ws, link.id)).conversation).not.toHaveProperty("analysis");
    expect((await storedEvents(ws.workspaceId)).map((e) => e.type)).not.toContain(
      "conversation.analyzed",
    );
  });
});

/** The queue message the outbox would send for the link. */
async function jobOf(ws: Workspace, linkId: string): Promise<AnalysisJob> {
  const row = await env.DB.prepare("SELECT session_id FROM links WHERE id = ?")
    .bind(linkId)
    .first<{ session_id: string }>();
  return {
    workspaceId: ws.workspaceId,
    linkId,
    sessionId: row?.session_id as string,
    settings: ANALYSIS as AnalysisJob["settings"],
  };
}

describe("the queue's message", () => {
  it("names the conversation and the setting, nothing of the person; none without analysis", async () => {
    const sent: unknown[] = [];
    const queue = {
      ANALYSES: { send: async (body: unknown) => void sent.push(body) } as unknown as Queue,
    };
    const facts = {
      workspaceId: "ws_1",
      linkId: "lnk_1",
      sessionId: "ses_1",
      participant: { name: "Ada" },
      participantExternalId: "crm-7",
      parameters: { plan: "pro" },
      analysis: ANALYSIS,
    } as unknown as ConversationFacts;
    await requestAnalysis(queue, facts);
    await requestAnalysis(queue, { ...facts, analysis: null });
    await requestAnalysis(queue, { ...facts, analysis: undefined });
    expect(sent).toEqual([
      { workspaceId: "ws_1", linkId: "lnk_1", sessionId: "ses_1", settings: ANALYSIS },
    ]);
  });
});

describe("erasure", () => {
  it("erasing the person removes the analysis; a job after it stores nothing", async () => {
    const ws = await seedWorkspace();
    await withAnalysis(ws);
    const link = await createLaunch(ws, { participant: { externalId: "erase-me" } });
    await chatAndEnd(link.token, "order_id: C-3");
    await eventually(async () => (await row(link.id))?.analysis ?? undefined);
    expect((await lookUp(ws, link.id)).conversation?.analysis?.status).toBe("completed");
    const job = await jobOf(ws, link.id);
    const requested = await expectJson<{ id: string }>(
      await call("POST", "/v1/widget/erasures", {
        token: ws.widgetKey,
        body: { externalId: "erase-me" },
      }),
      202,
    );
    await eventually(async () => {
      const erasure = await expectJson<{ status: string }>(
        await call("GET", `/v1/widget/erasures/${requested.id}`, { token: ws.widgetKey }),
        200,
      );
      return erasure.status === "running" ? undefined : erasure;
    });
    expect(
      (await call("GET", `/v1/widget/launches/${link.id}`, { token: ws.widgetKey })).status,
    ).toBe(404);
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM links WHERE id = ?")
      .bind(link.id)
      .first<{ n: number }>();
    expect(rows?.n).toBe(0);
    expect(await runAnalysis(env as AppBindings, job)).toEqual({ done: true });
    expect(await storedEvents(ws.workspaceId)).toEqual([]);
  }, 40_000);
});
