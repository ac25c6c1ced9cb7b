/**
 * create_link is idempotent across a resumed execution (docs/workflows.md#create-link): the runner
 * dies after the ledger made the link but before the node's result was saved; the alarm takes the
 * node up again, which finds the same link (id from execution and node, token kept sealed in the
 * state) rather than making a second one.
 */
import { env } from "cloudflare:workers";
import { afterAll, describe, expect, it, vi } from "vitest";
import { LinkLedger } from "../../src/index";
import { expectJson, seedWorkspace } from "../helpers/api";
import { alarmAt, restart } from "../helpers/flow-gather";
import { createWorkflow, execution, hook } from "../helpers/workflows";

type Method = (...args: unknown[]) => Promise<unknown>;
const proto = LinkLedger.prototype as unknown as Record<string, Method>;
const original = proto.createWorkflowLink as Method;
afterAll(() => {
  proto.createWorkflowLink = original;
});

describe("create_link across a restart", () => {
  it("makes one link when the runner died before saving the node's result", async () => {
    const ws = await seedWorkspace();
    let calls = 0;
    // The first create is made, then its answer never comes back (the runner is restarted).
    proto.createWorkflowLink = async function (this: unknown, ...args: unknown[]) {
      calls += 1;
      const result = await original.apply(this, args);
      if (calls === 1) await new Promise(() => {});
      return result;
    };
    const flow = await createWorkflow(ws, {
      nodes: [
        { type: "webhook" },
        {
          key: "link",
          type: "create_link",
          flowId: ws.agentId,
          channelId: ws.channelId,
          parameters: { plan: "basic" },
        },
      ],
      connections: [{ from: "webhook_1", to: "link" }],
    });
    const { executionId } = await expectJson<{ executionId: string }>(
      await hook(flow.webhookUrls.webhook_1 as string, { body: {} }),
      200,
    );
    const made = () =>
      env.DB.prepare("SELECT id, token_hash, expires_at FROM links WHERE workspace_id = ?")
        .bind(ws.workspaceId)
        .all<{ id: string; token_hash: string; expires_at: number }>();
    await vi.waitFor(
      async () => {
        if ((await made()).results.length !== 1) throw new Error("no link yet");
      },
      { timeout: 10_000, interval: 20 },
    );
    expect((await execution(ws, flow.id, executionId)).status).toBe("running");
    await restart(flow.id);
    await execution(ws, flow.id, executionId); // wakes the new instance
    await alarmAt(flow.id, Date.now() + 1_000);
    const ended = await vi.waitFor(
      async () => {
        const record = await execution(ws, flow.id, executionId);
        if (record.status === "running") throw new Error("still running");
        return record;
      },
      { timeout: 10_000, interval: 20 },
    );
    expect(ended.status).toBe("succeeded");
    expect(calls).toBe(2);
    const links = (await made()).results;
    expect(links).toHaveLength(1);
    expect(ended.nodes[1]?.output).toMatchObject({
      id: links[0]?.id,
      status: "pending",
      expiresAt: new Date(links[0]?.expires_at ?? 0).toISOString(),
    });
  });
});
