/**
 * Reads what is stored, raw, for the tests whose subject is what is kept at rest (secrets at rest,
 * a deleted workspace): every key and value of a Durable Object's storage and every row of every
 * table of its SQLite database, and every row of every D1 table. Generic on purpose: the tests
 * look for values (ids, secrets), never at an object's private layout.
 *
 * An object's key-value pairs live in the SQLite table `_cf_KV`, which the runtime refuses to let
 * a script query (SQLITE_AUTH): they are read through the storage API instead. The database file
 * itself (miniflare keeps it under the host's temporary directory) cannot be reached from workerd.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";

/** A value's bytes as Latin-1 and as UTF-16 text: how V8 serialises one- and two-byte strings. */
function blobTexts(value: ArrayBuffer): string {
  const bytes = new Uint8Array(value);
  let latin1 = "";
  for (const byte of bytes) latin1 += String.fromCharCode(byte);
  const utf16 = new TextDecoder("utf-16le").decode(bytes.subarray(0, bytes.length & ~1));
  return `${latin1}\n${utf16}`;
}

const cellText = (cell: unknown) =>
  cell instanceof ArrayBuffer ? blobTexts(cell) : String(cell ?? "");

/** What one object stores. */
export type StoredState = {
  /** Every key with its value (storage API), then every cell of every readable table, as text. */
  text: string;
  /** Key-value pairs (storage API). */
  entries: number;
  /** Rows of the tables a script may read (`read`). */
  rows: number;
  /** Every table of its SQLite database, and those read (all but the runtime's own). */
  schema: string[];
  read: string[];
  /** The alarm (epoch ms), or null. */
  alarm: number | null;
};

/** Everything the object behind `stub` stores (see the file's docstring). */
export function storedState(stub: DurableObjectStub): Promise<StoredState> {
  return runInDurableObject(stub, async (_instance, state) => {
    let text = "";
    let entries = 0;
    for (const [key, value] of await state.storage.list()) {
      text += `${key}=${JSON.stringify(value)}\n`;
      entries += 1;
    }
    const schema = state.storage.sql
      .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
      .toArray()
      .map(({ name }) => name);
    const read: string[] = [];
    let rows = 0;
    for (const name of schema) {
      let found: Record<string, SqlStorageValue>[];
      try {
        found = state.storage.sql.exec(`SELECT * FROM "${name}"`).toArray();
      } catch {
        continue; // refused by the runtime (`_cf_KV`: read through the storage API above)
      }
      read.push(name);
      rows += found.length;
      for (const row of found) for (const cell of Object.values(row)) text += `${cellText(cell)}\n`;
    }
    return { text, entries, rows, schema, read, alarm: await state.storage.getAlarm() };
  });
}

/** Every row of every D1 table but the runtime's own and the migrations' log, as text by table. */
export async function d1Tables(): Promise<Map<string, string>> {
  const tables = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name <> 'd1_migrations'",
  ).all<{ name: string }>();
  const out = new Map<string, string>();
  for (const { name } of tables.results) {
    const rows = await env.DB.prepare(`SELECT * FROM "${name}"`).all<Record<string, unknown>>();
    out.set(
      name,
      rows.results.map((row) => Object.values(row).map(cellText).join("\t")).join("\n"),
    );
  }
  return out;
}
