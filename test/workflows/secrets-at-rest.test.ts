/**
 * Secrets at rest in the Workflow-runner (docs/security.md#secrets-at-rest): while an
 * execution waits, its engine state (node outputs holding resolved `{{secrets.NAME}}` values) is kept
 * in the object's storage so the alarm can continue it. Nothing the object stores may hold a resolved
 * secret in plaintext, neither while the run waits nor once it has ended.
 *
 * The test's subject is what is stored, so it reads the storage raw (test/helpers/storage-scan.ts).
 */
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import { storedState } from "../helpers/storage-scan";
import { createWorkflow, execution, hook, putSecret } from "../helpers/workflows";

let ws: Workspace;
beforeAll(async () => {
  ws = await seedWorkspace();
});

const runner = (workflowId: string) =>
  env.WORKFLOW_RUNNER.get(env.WORKFLOW_RUNNER.idFromName(workflowId));

/** Everything the runner's storage holds, as text (keys and values, then every table's rows). */
const storedText = (workflowId: string) => storedState(runner(workflowId));

describe("a waiting execution's state at rest", () => {
  it("holds no resolved secret in plaintext while the run waits, nor after it ended", async () => {
    const secret = `at-rest-${crypto.randomUUID()}`;
    const marker = `shown-${crypto.randomUUID()}`;
    await putSecret(ws, "AT_REST", secret);
    const flow = await createWorkflow(ws, {
      nodes: [
        { type: "webhook" },
        {
          key: "copy",
          type: "set",
          fields: { token: "{{secrets.AT_REST}}", header: "Bearer {{secrets.AT_REST}}" },
        },
        { key: "pause", type: "wait", seconds: 3600 },
        // Only true when the resumed state still holds the secret itself: decrypted, not redacted.
        {
          key: "check",
          type: "condition",
          left: "{{copy.token}}",
          operator: "equals",
          right: "{{secrets.AT_REST}}",
        },
        { key: "done", type: "set", fields: { same: true } },
      ],
      connections: [
        { from: "webhook_1", to: "copy" },
        { from: "copy", to: "pause" },
        { from: "pause", to: "check" },
        { from: "check", to: "done", branch: "true" },
      ],
    });
    const { executionId } = await expectJson<{ executionId: string }>(
      await hook(flow.webhookUrls.webhook_1 as string, { body: { marker } }),
      200,
    );
    const waiting = await execution(ws, flow.id, executionId);
    expect(waiting.status).toBe("running");
    expect(waiting.nodes.at(-1)).toMatchObject({ key: "pause", status: "waiting" });
    expect(waiting.nodes[1]?.output).toEqual({ token: "[redacted]", header: "Bearer [redacted]" });

    const whileWaiting = await storedText(flow.id);
    // The scan reads what is stored: the shown record (with the body's marker) is there.
    expect(whileWaiting.schema).toContain("_cf_KV");
    expect(whileWaiting.text).toContain(executionId);
    expect(whileWaiting.text).toContain(marker);
    expect(whileWaiting.text).not.toContain(secret);

    // A new instance reads the state back from storage and the alarm continues the run.
    await evictDurableObject(runner(flow.id));
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 3_660_000);
    try {
      expect(await runDurableObjectAlarm(runner(flow.id))).toBe(true);
    } finally {
      vi.useRealTimers();
    }
    const ended = await vi.waitFor(
      async () => {
        const record = await execution(ws, flow.id, executionId);
        if (record.status === "running") throw new Error("still running");
        return record;
      },
      { timeout: 10_000, interval: 20 },
    );
    expect(ended.status).toBe("succeeded");
    expect(ended.nodes.map((node) => node.key)).toEqual([
      "webhook_1",
      "copy",
      "pause",
      "check",
      "done",
    ]);
    expect(ended.nodes[3]?.output).toEqual({ result: true });

    await runInDurableObject(runner(flow.id), (_instance, state) => state.storage.sync());
    const afterwards = await storedText(flow.id);
    expect(afterwards.text).toContain(marker);
    expect(afterwards.text).not.toContain(secret);
  });
});
