/**
 * Drizzle queries built once per isolate instead of once per call
 * (docs/performance.md#targets-and-what-stands-in-the-way). Drizzle turns a query builder into SQL
 * on every call, which was a tenth of a link's create and a fifth of a look-up that reads D1; the
 * hot queries are written with placeholders, built on first use, and bound with drizzle's own
 * `fillPlaceholders` (each column's encoder), so D1 receives exactly what the builder would send.
 */
import { fillPlaceholders } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { database } from "./database";

type BuiltQuery = { sql: string; params: unknown[] };

/**
 * A write built once: `build` makes the drizzle query with `sql.placeholder(name)` where values go;
 * the returned function binds `values` (by placeholder name) into a D1 statement, ready for
 * `D1WriteBatcher` or `batch`.
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

/**
 * A read built once per drizzle database: `build` returns drizzle's prepared query (`.prepare()`
 * of a builder with placeholders), whose `get`/`all` map rows as the builder would.
 */
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
