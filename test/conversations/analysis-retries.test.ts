/**
 * Retries of analyses (docs/api/conversations.md#analysis): a failing brain is tried 4 times with
 * backoff, each try a message of its own, so the queue's deliveries (the end not recorded yet, D1
 * or the ledger failing) never use up tries; the last delivery records `failed` whatever failed.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  ANALYSIS_DELIVERIES,
  ANALYSIS_RETRY_SECONDS,
  type AnalysisJob,
  MAX_ANALYSIS_TRIES,
  runAnalysis,
} from "../../src/conversations/analysis";
import type { AgentBrain } from "../../src/conversations/brains";
import worker from "../../src/index";
import type { AppBindings } from "../../src/platform/env";
import wrangler from "../../wrangler.toml?raw";
import { call, eventually, expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import { connect, createLaunch, open } from "../helpers/chat";
import { eventsOfTypes, registerReceiver } from "../helpers/events";

const SETTINGS = {
  summary: true,
  fields: [{ name: "order_id", type: "string", description: "The order" }],
} as AnalysisJob["settings"];

type LookedUp = { conversation: { analysis?: { status: string } } | null };

const lookUp = async (ws: Workspace, id: string) =>
  expectJson<LookedUp>(
    await call("GET", `/v1/widget/launches/${id}`, { token: ws.widgetKey }),
    200,
  );

/** The queue message the outbox would send for the link (its agent has no analysis: ours only). */
async function jobOf(ws: Workspace, linkId: string): Promise<AnalysisJob> {
  const row = await env.DB.prepare("SELECT session_id FROM links WHERE id = ?")
    .bind(linkId)
    .first<{ session_id: string }>();
  return {
    workspaceId: ws.workspaceId,
    linkId,
    sessionId: row?.session_id as string,
    settings: SETTINGS,
  };
}

/** A link the person opened and, when `end`, ended (recorded on the link). */
async function chattedLink(ws: Workspace, end = true): Promise<string> {
  const link = await createLaunch(ws);
  const client = await connect((await open(link.token)).socketUrl as string);
  if (!end) return link.id;
  client.send({ type: "end" });
  await client.next("ended");
  await eventually(async () => {
    const row = await env.DB.prepare("SELECT ended_at FROM links WHERE id = ?")
      .bind(link.id)
      .first<{ ended_at: number | null }>();
    return row?.ended_at ? true : undefined;
  });
  return link.id;
}

const failing: AgentBrain = {
  kind: "workers-ai",
  reply: () => Promise.reject(new Error("unused")),
  analyze: () => Promise.reject(new Error("model unavailable")),
};

/** The Worker's env with a failing Workers AI (the consumer's own brain) and a queue that records. */
function brokenEnv() {
  const sent: { body: AnalysisJob; delaySeconds?: number }[] = [];
  const ANALYSES = {
    send: async (body: AnalysisJob, options?: { delaySeconds?: number }) =>
      void sent.push({ body, delaySeconds: options?.delaySeconds }),
  };
  const AI = { run: () => Promise.reject(new Error("503")) };
  return { env: { ...(env as AppBindings), AI, ANALYSES } as unknown as AppBindings, sent };
}

/** Delivers `body` as its `attempts`th delivery; what the consumer did with it. */
async function deliver(to: AppBindings, body: AnalysisJob, attempts: number) {
  const batch = createMessageBatch<AnalysisJob>("agent-edge-analyses", [
    { id: "m1", timestamp: new Date(), attempts, body },
  ]);
  await worker.queue(batch, to);
  return getQueueResult(batch, createExecutionContext());
}

describe("retries", () => {
  it("a failing brain is tried again with backoff, then `failed` after the last try", async () => {
    const ws = await seedWorkspace();
    const receiver = await registerReceiver(ws);
    const linkId = await chattedLink(ws);
    let job = await jobOf(ws, linkId);
    const delays: number[] = [];
    for (let tries = 1; tries < MAX_ANALYSIS_TRIES; tries++) {
      const outcome = await runAnalysis(env as AppBindings, job, failing);
      if (!("next" in outcome)) throw new Error(`try ${tries}: ${JSON.stringify(outcome)}`);
      expect(outcome.next).toEqual({ ...job, tries });
      delays.push(outcome.inSeconds);
      job = outcome.next;
    }
    expect(delays).toEqual([...ANALYSIS_RETRY_SECONDS]);
    expect((await lookUp(ws, linkId)).conversation).not.toHaveProperty("analysis");

    expect(await runAnalysis(env as AppBindings, job, failing)).toEqual({ done: true });
    const failed = { status: "failed", summary: null, problems: [] };
    expect((await lookUp(ws, linkId)).conversation?.analysis).toMatchObject(failed);
    const events = await eventsOfTypes(receiver, ["conversation.analyzed"]);
    expect(events.get("conversation.analyzed")?.data).toMatchObject({ analysis: failed });
  }, 30_000);

  it("the consumer queues each next try as a new message, whatever the delivery count", async () => {
    const ws = await seedWorkspace();
    const job = await jobOf(ws, await chattedLink(ws));
    const broken = brokenEnv();
    // A 4th delivery of the first try (after the ledger's trouble) is still the first try.
    const first = await deliver(broken.env, job, MAX_ANALYSIS_TRIES);
    expect(first.explicitAcks).toEqual(["m1"]);
    expect(first.retryMessages).toEqual([]);
    expect(broken.sent).toEqual([{ body: { ...job, tries: 1 }, delaySeconds: 30 }]);
    expect((await lookUp(ws, job.linkId)).conversation).not.toHaveProperty("analysis");

    const last = await deliver(broken.env, { ...job, tries: MAX_ANALYSIS_TRIES - 1 }, 1);
    expect(last.explicitAcks).toEqual(["m1"]);
    expect(broken.sent).toHaveLength(1);
    expect((await lookUp(ws, job.linkId)).conversation?.analysis?.status).toBe("failed");
  }, 30_000);

  it("delivers again while the end is not recorded, and records `failed` on the last delivery", async () => {
    const ws = await seedWorkspace();
    const job = await jobOf(ws, await chattedLink(ws, false));
    const broken = brokenEnv();
    const early = await deliver(broken.env, job, ANALYSIS_DELIVERIES - 1);
    expect(early.explicitAcks).toEqual([]);
    expect(early.retryMessages.map((retried) => retried.msgId)).toEqual(["m1"]);
    expect((await lookUp(ws, job.linkId)).conversation).not.toHaveProperty("analysis");

    const last = await deliver(broken.env, job, ANALYSIS_DELIVERIES);
    expect(last.explicitAcks).toEqual(["m1"]);
    expect((await lookUp(ws, job.linkId)).conversation?.analysis?.status).toBe("failed");
    expect(broken.sent).toEqual([]);
  }, 30_000);

  it("counts the deliveries wrangler.toml gives the analyses queue", () => {
    const consumer =
      /\[\[queues\.consumers\]\]\s*queue = "agent-edge-analyses"[^[]*?max_retries = (\d+)/.exec(
        wrangler,
      );
    expect(Number(consumer?.[1]) + 1).toBe(ANALYSIS_DELIVERIES);
  });
});
