/**
 * Recording an analysis (docs/events.md#conversationanalyzed): workflows are started with the
 * analysis the link holds, and not at all for a link erased while the model worked
 * (docs/security.md#erasure).
 */
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { recordAnalysis } from "../../src/conversations/analysis/record";
import { database } from "../../src/db/database";
import { type ConversationAnalysis, type Link, links } from "../../src/db/schema";
import { linkLedger } from "../../src/launch/ledger/client";
import type { AppBindings } from "../../src/platform/env";
import { call, expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import { createLaunch } from "../helpers/chat";
import { createWorkflow, type ExecutionView } from "../helpers/workflows";

const analysisOf = (summary: string): ConversationAnalysis => ({
  status: "completed",
  summary,
  data: {},
  problems: [],
});

/** A workflow started by `conversation.analyzed`, and an ended link of the workspace's agent. */
async function setUp(): Promise<{ ws: Workspace; workflowId: string; link: Link }> {
  const ws = await seedWorkspace();
  const flow = await createWorkflow(ws, {
    nodes: [{ type: "conversation_event", agentId: ws.agentId, events: ["conversation.analyzed"] }],
  });
  const { id } = await createLaunch(ws, { participant: { name: "Ada", externalId: "crm-9" } });
  const now = Date.now();
  // Ended as a chat would leave it; the ledger reads D1 for every outcome it records.
  await env.DB.prepare(
    "UPDATE links SET status = 'ended', session_id = ?, started_at = ?, ended_at = ? WHERE id = ?",
  )
    .bind(`ses_rec${now}`, now - 1_000, now, id)
    .run();
  const link = await database(env).select().from(links).where(eq(links.id, id)).get();
  if (!link) throw new Error("link not set up");
  return { ws, workflowId: flow.id, link };
}

async function executions(ws: Workspace, workflowId: string): Promise<ExecutionView[]> {
  const page = await expectJson<{ data: ExecutionView[] }>(
    await call("GET", `/v1/manage/workflows/${workflowId}/executions`, { token: ws.ownerToken }),
    200,
  );
  return page.data;
}

describe("recordAnalysis", () => {
  it("starts no workflow for a link erased while the model worked", async () => {
    const { ws, workflowId, link } = await setUp();
    await linkLedger(env, ws.workspaceId).eraseLink(ws.workspaceId, link.id);
    await recordAnalysis(env as AppBindings, link, analysisOf("Ada asked"), Date.now());
    expect(await executions(ws, workflowId)).toEqual([]);
  });

  it("a job that lost the race starts workflows with the analysis stored first", async () => {
    const { ws, workflowId, link } = await setUp();
    const first = analysisOf("the first job's");
    await env.DB.prepare("UPDATE links SET analysis = ? WHERE id = ?")
      .bind(JSON.stringify(first), link.id)
      .run();
    await recordAnalysis(env as AppBindings, link, analysisOf("the second job's"), Date.now());
    const runs = await executions(ws, workflowId);
    expect(runs).toHaveLength(1);
    expect(runs[0]?.nodes[0]?.output).toMatchObject({ analysis: first });
  });

  it("the first job starts workflows with its own analysis", async () => {
    const { ws, workflowId, link } = await setUp();
    const analysis = analysisOf("Ada asked about her order");
    await recordAnalysis(env as AppBindings, link, analysis, Date.now());
    // The ledger answers with the analysis kept, the first, to a repeat with another.
    const ledger = linkLedger(env, ws.workspaceId);
    const again = await ledger.recordAnalysis(ws.workspaceId, link.id, analysisOf("x"), Date.now());
    expect(again).toEqual(analysis);
    const runs = await executions(ws, workflowId);
    expect(runs[0]?.nodes[0]?.output).toMatchObject({ analysis, launchId: link.id });
  });
});
