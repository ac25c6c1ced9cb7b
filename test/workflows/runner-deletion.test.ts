/**
 * A deleted workflow's runner keeps nothing (docs/api/manage.md#workflows): a write under way when
 * the workflow is deleted, and any record or count made after it, are never stored.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { seedWorkspace } from "../helpers/api";
import { shardStub } from "../helpers/shards";
import { createWorkflow, hook } from "../helpers/workflows";

/** The parts of the runner this test drives directly. */
type RunnerParts = {
  metrics: { write(): Promise<void>; forget(): void; call(outcome: "accepted", ms: number): void };
  configure(workflowId: string): Promise<void>;
};

describe("a deleted workflow's runner", () => {
  it("stores nothing after the deletion, not even a write under way", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, { nodes: [{ type: "webhook" }] });
    expect((await hook(flow.webhookUrls.webhook_1 as string, { body: {} })).status).toBe(200);
    await env.DB.prepare("DELETE FROM workflows WHERE id = ?").bind(flow.id).run();
    await runInDurableObject(shardStub(flow.id, 0), async (instance, state) => {
      const runner = instance as unknown as RunnerParts;
      // The hour's counts are read before they are written: the deletion comes in between, as
      // `configure` does it (forget, then delete everything).
      const writing = runner.metrics.write();
      runner.metrics.forget();
      await state.storage.deleteAll();
      await writing;
      expect((await state.storage.list()).size).toBe(0);
      // Counted after the deletion (an execution that was still running ends): never written.
      runner.metrics.call("accepted", 5);
      await runner.configure(flow.id);
      await runner.metrics.write();
      expect((await state.storage.list()).size).toBe(0);
    });
  });
});
