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
import { createWorkflow, ECHO_URL, execution, hook, putSecret } from "../helpers/workflows";

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

describe("a created link's token at rest (docs/workflows.md#create-link)", () => {
  it("is sealed in the waiting state, used after a restart, and stored nowhere in plaintext", async () => {
    const inbox = `mail-${crypto.randomUUID()}`;
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
        { key: "pause", type: "wait", seconds: 3600 },
        // Resumed from storage, a later node's template still reads the token itself.
        {
          key: "mail",
          type: "http_request",
          method: "POST",
          url: `${ECHO_URL}/receiver/${inbox}?fail=0`,
          body: { url: "{{link.url}}" },
        },
      ],
      connections: [
        { from: "webhook_1", to: "link" },
        { from: "link", to: "pause" },
        { from: "pause", to: "mail" },
      ],
    });
    const { executionId } = await expectJson<{ executionId: string }>(
      await hook(flow.webhookUrls.webhook_1 as string, { body: {} }),
      200,
    );
    const waiting = await vi.waitFor(
      async () => {
        const record = await execution(ws, flow.id, executionId);
        if (record.nodes.at(-1)?.status !== "waiting") throw new Error("not waiting yet");
        return record;
      },
      { timeout: 10_000, interval: 20 },
    );
    const linkId = (waiting.nodes[1]?.output as { id: string } | undefined)?.id;
    const row = await env.DB.prepare("SELECT token_hash FROM links WHERE id = ?")
      .bind(linkId)
      .first<{ token_hash: string }>();

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
    // The mailer got the real URL (the link's own token); the record shows it redacted.
    const mails = (await (await fetch(`${ECHO_URL}/received/${inbox}`)).json()) as {
      body: string;
    }[];
    const sent = JSON.parse(mails[0]?.body ?? "{}") as { url: string };
    const token = sent.url.split("#launch=")[1] ?? "";
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await sha256Hex(token)).toBe(row?.token_hash);
    expect(JSON.stringify(ended)).not.toContain(token);
    expect(JSON.stringify(ended)).toContain("#launch=[redacted]");

    await runInDurableObject(runner(flow.id), (_instance, state) => state.storage.sync());
    expect((await storedText(flow.id)).text).not.toContain(token);
  });
});

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
