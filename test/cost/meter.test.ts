/**
 * The meter counts what it says (docs/performance.md#how-the-counts-are-made): known statements
 * read and write the rows D1's and SQLite's rules say, including `first()`, `raw()`, batches and
 * `exec`, whose public results hide `meta`; object requests made by objects to other objects;
 * the rows of an object's SQL; the key-value methods' rows as SQLite counts the statements the
 * runtime runs for them; Worker invocations.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, expectJson, launchBody, seedWorkspace } from "../helpers/api";
import { open } from "../helpers/chat";
import { installMeter, measureOne, runtimeStub, uninstallMeter } from "./meter";

const TABLE = "cost_meter_probe";

afterAll(() => uninstallMeter());

describe("D1 rows", () => {
  beforeAll(async () => {
    await env.DB.exec(`CREATE TABLE ${TABLE} (id TEXT PRIMARY KEY, v TEXT NOT NULL)`);
    await env.DB.exec(`CREATE INDEX ${TABLE}_v ON ${TABLE} (v)`);
  });
  afterAll(() => env.DB.exec(`DROP TABLE ${TABLE}`));

  it("counts every statement: rows and index entries written, rows a scan reads", async () => {
    const insert = env.DB.prepare(`INSERT INTO ${TABLE} (id, v) VALUES (?, ?)`);
    const tally = await measureOne(async () => {
      // Three rows, each with its key's index entry and its `v` index entry: 9 rows written.
      await env.DB.batch([insert.bind("a", "x"), insert.bind("b", "y"), insert.bind("c", "z")]);
      // Full scans read every row, though first() and raw() return no meta.
      await env.DB.prepare(`SELECT id FROM ${TABLE} WHERE v LIKE '%'`).first();
      await env.DB.prepare(`SELECT * FROM ${TABLE} WHERE v LIKE '%'`).raw();
      await env.DB.prepare(`UPDATE ${TABLE} SET v = 'w' WHERE id = ?`).bind("a").run();
      await env.DB.exec(`DELETE FROM ${TABLE} WHERE v LIKE '%'`);
    });
    expect(tally.d1Queries).toBe(5);
    // The update: the row and its `v` index entry; a delete counts the rows it removes.
    expect(tally.d1RowsWritten).toBe(9 + 2 + 3);
    expect(tally.d1Changes).toBe(3 + 1 + 3);
    expect(tally.d1RowsRead).toBe(
      tally.trace.reduce((sum, line) => sum + Number(/^D1 (\d+)\//.exec(line)?.[1] ?? 0), 0),
    );
    expect(tally.trace.filter((line) => line.startsWith("D1 3/0 SELECT"))).toHaveLength(2);
  });
});

describe("object requests", () => {
  it("counts the Worker's call to an object and an object's call to another", async () => {
    const ws = await seedWorkspace();
    const link = await expectJson<{ id: string; token: string }>(
      await call("POST", "/v1/widget/launches", { token: ws.widgetKey, body: launchBody(ws) }),
      201,
    );
    await open(link.token);
    // Revoking an opened link: the Worker calls the ledger, the ledger tells the conversation.
    const tally = await measureOne(() =>
      call("DELETE", `/v1/widget/launches/${link.id}`, { token: ws.widgetKey }),
    );
    expect(tally.workerInvocations).toBe(1);
    expect(tally.objectCalls).toEqual({ LinkLedger: 1, WorkflowRunner: 0, Conversation: 1 });
  });

  it("counts a request that reaches no object as one invocation and nothing else", async () => {
    const tally = await measureOne(async () => (await call("GET", "/health")).text());
    expect(tally.workerInvocations).toBe(1);
    expect(tally.objectCalls).toEqual({ LinkLedger: 0, WorkflowRunner: 0, Conversation: 0 });
    expect(tally.d1Queries).toBe(0);
  });
});

describe("object storage rows", () => {
  const scratch = () =>
    runtimeStub(env.LINK_LEDGER.get(env.LINK_LEDGER.idFromName(`meter-${crypto.randomUUID()}`)));

  it("adds up the rows of an object's SQL statements", async () => {
    await installMeter();
    const stub = scratch();
    await runInDurableObject(stub, (_o, state) => {
      state.storage.sql.exec("CREATE TABLE probe (id INTEGER PRIMARY KEY, v TEXT NOT NULL)");
      state.storage.sql.exec("CREATE INDEX probe_v ON probe (v)");
    });
    const tally = await measureOne(() =>
      runInDurableObject(stub, (_o, state) => {
        // Two rows, each with its `v` index entry; then a scan of both.
        state.storage.sql.exec("INSERT INTO probe (v) VALUES ('a'), ('b')");
        return state.storage.sql.exec("SELECT * FROM probe").toArray();
      }),
    );
    expect(tally.objectRowsWritten).toBe(4);
    expect(tally.objectRowsRead).toBe(2);
  });

  it("costs the key-value methods as SQLite counts the statements the runtime runs for them (kv-calibration)", async () => {
    await installMeter();
    const stub = scratch();
    // Started first: the object's constructor runs SQL of its own.
    await runInDurableObject(stub, () => {});
    const viaKv = await measureOne(() =>
      runInDurableObject(stub, async (_o, state) => {
        await state.storage.put({ "a/1": 1, "a/2": 2, "b/1": 3 });
        await state.storage.put("a/1", 4);
        await state.storage.get(["a/1", "zz"]);
        await state.storage.list({ prefix: "a/" });
        await state.storage.list({ start: "a/", limit: 1 });
        await state.storage.delete(["a/2", "zz"]);
      }),
    );
    // The runtime's own statements on a table of the same shape (workerd's sqlite-kv).
    const viaSql = await measureOne(() =>
      runInDurableObject(stub, (_o, state) => {
        const sql = state.storage.sql;
        sql.exec("CREATE TABLE kv (key TEXT PRIMARY KEY, value BLOB) WITHOUT ROWID");
        const put = "INSERT INTO kv VALUES (?, ?) ON CONFLICT DO UPDATE SET value = excluded.value";
        for (const [key, value] of [
          ["a/1", 1],
          ["a/2", 2],
          ["b/1", 3],
          ["a/1", 4],
        ]) {
          sql.exec(put, key, value);
        }
        for (const key of ["a/1", "zz"])
          sql.exec("SELECT value FROM kv WHERE key = ?", key).toArray();
        sql.exec("SELECT * FROM kv WHERE key >= ? AND key < ? ORDER BY key", "a/", "a0").toArray();
        sql.exec("SELECT * FROM kv WHERE key >= ? ORDER BY key LIMIT ?", "a/", 1).toArray();
        for (const key of ["a/2", "zz"]) sql.exec("DELETE FROM kv WHERE key = ?", key);
      }),
    );
    const created = viaSql.trace.find((line) => line.includes("CREATE TABLE kv")) ?? "";
    const [createRead, createWritten] = (/^SQL (\d+)\/(\d+)/.exec(created) ?? [])
      .slice(1)
      .map(Number);
    expect(viaKv.objectRowsRead).toBe(viaSql.objectRowsRead - (createRead ?? 0));
    expect(viaKv.objectRowsWritten).toBe(viaSql.objectRowsWritten - (createWritten ?? 0));
    // Four puts and one delete of a key that existed.
    expect(viaKv.objectRowsWritten).toBe(5);
  });
});
