/**
 * Management changes reach every runner shard of a sharded workflow (docs/scaling.md#runner-shards):
 * a stop, a start, a new secret value and a deletion take effect on all of them at once, not only on
 * shard 0, even on shards that had the workflow cached from earlier calls.
 */
import { describe, expect, it } from "vitest";
import { RUNNER_CAPACITY_PER_MINUTE, shardOfId } from "../../src/workflows/runner/shards";
import { call, expectJson, seedWorkspace } from "../helpers/api";
import { idsOnShard } from "../helpers/shards";
import { createWorkflow, hook, putSecret } from "../helpers/workflows";

const FOUR = 3 * RUNNER_CAPACITY_PER_MINUTE + 1;

describe("management changes on a workflow with four shards", () => {
  it("stop, start, a secret's new value and deletion reach every shard", async () => {
    const ws = await seedWorkspace();
    await putSecret(ws, "SHARD_NOTE", "first");
    const flow = await createWorkflow(ws, {
      nodes: [
        { type: "webhook", responseMode: "lastNode", rateLimitPerMinute: FOUR },
        { key: "ok", type: "set", fields: { note: "{{secrets.SHARD_NOTE}}" } },
      ],
      connections: [{ from: "webhook_1", to: "ok" }],
    });
    const url = flow.webhookUrls.webhook_1 as string;
    const burst = () => Promise.all(Array.from({ length: 32 }, () => hook(url, { body: {} })));
    // Every shard has now read the workflow (running) and the secret.
    const warm = await burst();
    expect(new Set(warm.map((r) => shardOfId(r.headers.get("x-execution-id") ?? "")))).toEqual(
      new Set([0, 1, 2, 3]),
    );

    await expectJson(
      await call("POST", `/v1/manage/workflows/${flow.id}/stop`, { token: ws.ownerToken }),
      200,
    );
    expect((await burst()).map((r) => r.status)).toEqual(Array(32).fill(404));
    await expectJson(
      await call("POST", `/v1/manage/workflows/${flow.id}/start`, { token: ws.ownerToken }),
      200,
    );

    await putSecret(ws, "SHARD_NOTE", "second");
    const after = await burst();
    const notes = await Promise.all(after.map((r) => expectJson<{ note: string }>(r, 200)));
    // Secrets are redacted in records, not in a lastNode answer the author chose.
    expect(new Set(notes.map((body) => body.note))).toEqual(new Set(["second"]));
    expect(new Set(after.map((r) => shardOfId(r.headers.get("x-execution-id") ?? "")))).toEqual(
      new Set([0, 1, 2, 3]),
    );

    const deleted = await call("DELETE", `/v1/manage/workflows/${flow.id}`, {
      token: ws.ownerToken,
    });
    expect(deleted.status).toBe(204);
    for (const shard of [0, 1, 2, 3]) expect(await idsOnShard(flow.id, shard)).toEqual([]);
  });
});
