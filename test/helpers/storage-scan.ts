/**
 * What is stored, as text, for tests that must show something is NOT kept anywhere (a resolved
 * secret at rest, a person after their erasure): a Durable Object's storage read raw, every key and
 * value through the storage API (they live in the SQLite table `_cf_KV`, which the runtime refuses
 * to let a script query: SQLITE_AUTH) and every row of every other table of its SQLite database;
 * and every row of every table of D1. The database files themselves (miniflare keeps them under
 * the host's temporary directory) cannot be reached from inside workerd.
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

/**
 * Everything an object's storage holds, as text: each key with its value (storage API), then each
 * row of each SQLite table a script may read. `schema` names every table, `read` those read.
 */
export async function objectStoredText(
  stub: DurableObjectStub<Rpc.DurableObjectBranded>,
): Promise<{ text: string; schema: string[]; read: string[] }> {
  return runInDurableObject(stub, async (_instance: unknown, state: DurableObjectState) => {
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

/** Every row of every table of D1 (migrations' bookkeeping aside), as text. */
export async function d1StoredText(): Promise<{ text: string; tables: string[] }> {
  const tables = (
    await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'",
    ).all<{ name: string }>()
  ).results.map(({ name }) => name);
  let text = "";
  for (const name of tables) {
    const rows = await env.DB.prepare(`SELECT * FROM "${name}"`).all<Record<string, unknown>>();
    for (const row of rows.results) text += `${JSON.stringify(row)}\n`;
  }
  return { text, tables };
}
