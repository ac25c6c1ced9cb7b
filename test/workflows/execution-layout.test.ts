/**
 * How a runner keys its execution records (docs/architecture.md#storage): by the execution id,
 * whose first characters are its creation time, so no id index is written
 * (docs/performance.md#counts-per-call); records stored before issue 33 (`x/<seq>` with `i/<id>`)
 * still read, list, page and prune with the new ones.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { executionIdTime, newExecutionId } from "../../src/platform/ids";
import { type Row, recordKey } from "../../src/workflows/runner/execution-row";
import { deleteFinished } from "../../src/workflows/runner/record-housekeeping";
import { idOnShard, shardOfId } from "../../src/workflows/runner/shards";
import { expectJson, seedWorkspace } from "../helpers/api";
import { createWorkflow, hook } from "../helpers/workflows";

const IMMEDIATE = {
  nodes: [
    { type: "webhook", responseMode: "immediate" },
    { key: "done", type: "set", fields: { ok: true } },
  ],
  connections: [{ from: "webhook_1", to: "done" }],
};

const runner = (workflowId: string) =>
  env.WORKFLOW_RUNNER.get(env.WORKFLOW_RUNNER.idFromName(workflowId));

/** A finished record as a runner stores it. */
const row = (id: string, workflowId: string, startedAt: number, seq?: number): Row => ({
  id,
  workflowId,
  status: "succeeded",
  triggerKey: "webhook_1",
  triggerType: "webhook",
  startedAt,
  finishedAt: startedAt + 1,
  nodes: "[]",
  live: null,
  wake: null,
  definitionAt: 0,
  replayOf: null,
  queuedAt: null,
  ...(seq !== undefined ? { seq } : {}),
});

const oldId = (n: number) => `exe_old${String(n).padStart(19, "0")}`;

describe("a runner's execution records", () => {
  it("are keyed by the execution id, with no index, and read with those stored before issue 33", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, IMMEDIATE);
    const url = flow.webhookUrls.webhook_1 as string;
    const send = async () =>
      (await expectJson<{ executionId: string }>(await hook(url, { body: {} }), 200)).executionId;
    const first = await send();
    const stub = runner(flow.id);
    const before = Date.now() - 60_000;
    await runInDurableObject(stub, async (_o, state) => {
      for (const n of [1, 2]) {
        await state.storage.put(recordKey(n), row(oldId(n), flow.id, before + n));
        await state.storage.put(`i/${oldId(n)}`, n);
      }
      await state.storage.sync();
    });
    const second = await send();
    await stub.listExecutions(1); // the records are written
    await runInDurableObject(stub, async (_o, state) => {
      const keys = [...(await state.storage.list({ prefix: "x/" })).keys()];
      expect(keys).toEqual([
        recordKey(1),
        recordKey(2),
        `x/~${first.slice(4)}`,
        `x/~${second.slice(4)}`,
      ]);
      expect([...(await state.storage.list({ prefix: "i/" })).keys()]).toEqual([
        `i/${oldId(1)}`,
        `i/${oldId(2)}`,
      ]);
    });
    const ids = async (page: Promise<{ data: { id: string }[]; hasMore: boolean }>) =>
      (await page).data.map((record) => record.id);
    expect(await ids(stub.listExecutions(10))).toEqual([second, first, oldId(2), oldId(1)]);
    expect(await ids(stub.listExecutions(2, first))).toEqual([oldId(2), oldId(1)]);
    expect(await ids(stub.listExecutions(2, oldId(2)))).toEqual([oldId(1)]);
    expect((await stub.getExecution(oldId(1)))?.startedAt).toBe(before + 1);
    expect((await stub.getExecution(second))?.status).toBe("succeeded");
    const all = { createdAt: Date.now() + 1, inclusive: true };
    expect(await ids(stub.listExecutionsBefore(10, all))).toEqual([
      second,
      first,
      oldId(2),
      oldId(1),
    ]);
    const older = { createdAt: before + 2, inclusive: false };
    expect(await ids(stub.listExecutionsBefore(10, older))).toEqual([oldId(1)]);
  });

  it("are pruned in creation order across both layouts, with the old ones' index", async () => {
    const stub = env.WORKFLOW_RUNNER.get(env.WORKFLOW_RUNNER.newUniqueId());
    await runInDurableObject(stub, async (_o, state) => {
      const now = Date.now();
      for (const n of [1, 2, 3]) {
        await state.storage.put(recordKey(n), row(oldId(n), "wf_x", now + n));
        await state.storage.put(`i/${oldId(n)}`, n);
      }
      const kept: string[] = [];
      for (const n of [4, 5, 6]) {
        const id = newExecutionId(now + n);
        await state.storage.put(`x/~${id.slice(4)}`, row(id, "wf_x", now + n, n));
        if (n > 4) kept.push(`x/~${id.slice(4)}`);
      }
      expect(await deleteFinished(state.storage, { maxSeq: 4 })).toEqual({
        deleted: 4,
        more: false,
      });
      expect([...(await state.storage.list({ prefix: "x/" })).keys()]).toEqual(kept);
      expect((await state.storage.list({ prefix: "i/" })).size).toBe(0);
    });
  });
});

describe("execution ids", () => {
  it("sort in creation time, and one isolate's ids of a millisecond in the order it made them", () => {
    const t = Date.now() + 100;
    const ids = [t, t, t + 1_000].map((ms) => newExecutionId(ms));
    expect([...ids].sort()).toEqual(ids);
    expect(ids.map(executionIdTime)).toEqual([t * 1000, t * 1000 + 1, (t + 1_000) * 1000]);
    // A clock that steps back makes ids of the time they carry.
    const earlier = newExecutionId(t - 1);
    expect(executionIdTime(earlier)).toBe((t - 1) * 1000);
    expect(earlier < (ids[0] as string)).toBe(true);
    expect(executionIdTime(oldId(1))).toBeNull();
    expect(executionIdTime(`exe_${"a".repeat(32)}`)).toBeNull();
    expect(executionIdTime(`${ids[0]}-3`)).toBe(t * 1000);
  });

  it("read with a shard's mark (1 to 99) only, and base62 characters only", () => {
    const ms = Date.now() + 5_000;
    const id = newExecutionId(ms);
    const time = executionIdTime(id);
    expect(Math.floor((time as number) / 1000)).toBe(ms);
    for (const shard of ["-1", "-9", "-10", "-99"])
      expect(executionIdTime(`${id}${shard}`)).toBe(time);
    for (const mark of ["-0", "-01", "-100", "-", "-a", "-1a", "--1", "x3", "3"])
      expect(executionIdTime(`${id}${mark}`)).toBeNull();
    // A mark in place of the last characters leaves too few.
    expect(executionIdTime(`${id.slice(0, 26)}-5`)).toBeNull();
    // Each stands for one UTF-16 unit: the id keeps its length, so its characters are read.
    for (const at of [4, 12, 27]) {
      for (const other of ["-", "_", "é", "\uD83D"]) {
        expect(executionIdTime(`${id.slice(0, at)}${other}${id.slice(at + 1)}`)).toBeNull();
      }
    }
    expect(executionIdTime(`evt_${id.slice(4)}`)).toBeNull();
  });

  it("name their shard as `-<1 to 99>` at their end reads, exactly as the regex it replaced", () => {
    const MARK = /-([1-9]\d?)$/;
    const id = newExecutionId();
    const ends = ["", "-1", "-9", "-10", "-99", "-0", "-00", "-01", "-100", "-", "--1", "-1-2"];
    const others = ["-a", "x3", "3", "12", "-1a", "-\u0661", "\uD83D-2"];
    for (const text of [...ends.map((end) => `${id}${end}`), ...ends, ...others]) {
      const mark = MARK.exec(text);
      expect(shardOfId(text), text).toBe(mark ? Number(mark[1]) : 0);
      for (const shard of [0, 3, 12]) {
        const bare = text.replace(MARK, "");
        expect(idOnShard(text, shard), text).toBe(shard === 0 ? bare : `${bare}-${shard}`);
      }
    }
  });
});
