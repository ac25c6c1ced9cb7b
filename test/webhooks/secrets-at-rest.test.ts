/**
 * Secrets at rest in the Workflow-runner (docs/security.md#secrets-at-rest): while an
 * execution waits, its engine state (node outputs holding resolved `{{secrets.NAME}}` values) is kept
 * in the object's storage so the alarm can continue it. Nothing the object stores may hold a resolved
 * secret in plaintext, neither while the run waits nor once it has ended.
 *
 * The test's subject is what is stored, so it reads the storage raw: every key and value through the
 * storage API (they live in the SQLite table `_cf_KV`, which the runtime refuses to let a script
 * query: SQLITE_AUTH), and every row of every other table of the object's SQLite database. The
 * database file itself (miniflare keeps it under the host's temporary directory,
 * `miniflare-<hex>/do/<namespace>/<id>.sqlite`) cannot be reached from inside workerd.
 */
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import { createWorkflow, execution, hook, putSecret } from "../helpers/workflows";

let ws: Workspace;
beforeAll(async () => {
  ws = await seedWorkspace();
});

const runner = (workflowId: string) =>
  env.WORKFLOW_RUNNER.get(env.WORKFLOW_RUNNER.idFromName(workflowId));

/** A value's bytes as Latin-1 and as UTF-16 text: how V8 serialises one- and two-byte strings. */
function blobTexts(value: ArrayBuffer): string {
  const bytes = new Uint8Array(value);
  let latin1 = "";
  for (const byte of bytes) latin1 += String.fromCharCode(byte);
  const utf16 = new TextDecoder("utf-16le").decode(bytes.subarray(0, bytes.length & ~1));
  return `${latin1}\n${utf16}`;
}

/**
 * Everything the runner's storage holds, as text: each key with its value (storage API), then each
 * row of each SQLite table a script may read. `schema` names every table, `read` those read.
 */
async function storedText(
  workflowId: string,
): Promise<{ text: string; schema: string[]; read: string[] }> {
  return runInDurableObject(runner(workflowId), async (_instance, state) => {
    let text = "";
    for (const [key, value] of await state.storage.list()) {
      text += `${key}=${JSON.stringify(value)}\n`;
    }
    const schema = state.storage.sql
      .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
      .toArray()
      .map(({ name }) => name);
    const read: string[] = [];
    for (const name of schema) {
      let rows: Record<string, SqlStorageValue>[];
      try {
        rows = state.storage.sql.exec(`SELECT * FROM "${name}"`).toArray();
      } catch {
        continue; // refused by the runtime (`_cf_KV`: read through the storage API above)
      }
      read.push(name);
      for (const row of rows) {
        for (const cell of Object.values(row)) {
          text += `${cell instanceof ArrayBuffer ? blobTexts(cell) : String(cell)}\n`;
        }
      }
    }
    return { text, schema, read };
  });
}

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
