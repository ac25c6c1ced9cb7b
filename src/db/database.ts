/** The one way code gets a Drizzle handle on the D1 binding (docs/architecture.md#storage). */
import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";

const handles = new WeakMap<D1Database, DrizzleD1Database>();

/** The Drizzle database of `env.DB`, made once per binding object and reused. */
export function database(env: { DB: D1Database }): DrizzleD1Database {
  let db = handles.get(env.DB);
  if (!db) {
    db = drizzle(env.DB);
    handles.set(env.DB, db);
  }
  return db;
}
