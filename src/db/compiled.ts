/**
 * Hot Drizzle queries built once per isolate, bound by drizzle's own encoders
 * (why: docs/performance.md#targets-and-what-stands-in-the-way).
 */
import { fillPlaceholders } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { database } from "./database";

type BuiltQuery = { sql: string; params: unknown[] };

/**
 * A write built once with `sql.placeholder(name)`s; the function binds `values` into a D1 statement.
 * @throws Error when a placeholder has no value in `values`
 */
export function compiledWrite<V extends Record<string, unknown>>(
  build: (db: DrizzleD1Database) => { toSQL(): BuiltQuery },
): (d1: D1Database, values: V) => D1PreparedStatement {
  let query: BuiltQuery | undefined;
  return (d1, values) => {
    query ??= build(database({ DB: d1 })).toSQL();
    return d1.prepare(query.sql).bind(...fillPlaceholders(query.params, values));
  };
}

/** A read prepared once per drizzle database (`.prepare()` of a builder with placeholders). */
export function compiledRead<P>(build: (db: DrizzleD1Database) => P): (db: DrizzleD1Database) => P {
  const prepared = new WeakMap<DrizzleD1Database, P>();
  return (db) => {
    let query = prepared.get(db);
    if (query === undefined) {
      query = build(db);
      prepared.set(db, query);
    }
    return query;
  };
}
