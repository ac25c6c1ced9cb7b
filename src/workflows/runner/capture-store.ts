/** Samples of a webhook node's test URL, in the runner's SQLite (docs/webhooks.md#capture). */

import type { JsonValue } from "../../platform/json";

/** The limits of capture (docs/webhooks.md#capture). */
export const CAPTURE = {
  maxCount: 20,
  defaultCount: 1,
  maxTtlSeconds: 3_600,
  defaultTtlSeconds: 600,
  /** Samples kept per node: the newest this many, for at most maxAgeMs. */
  keptPerNode: 20,
  maxAgeMs: 7 * 24 * 3600 * 1000,
} as const;

/** One captured call; `capturedAt` in epoch ms. */
export type Sample = { id: string; capturedAt: number; output: JsonValue };

/**
 * A node's arming: how many calls it still captures, until when (epoch ms), and whether each also
 * starts a test execution (docs/webhooks.md#test-runs).
 */
export type Arming = { remaining: number; expiresAt: number; run: boolean };

/** The runner's armings and samples. */
export class CaptureStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS capture_arms (node TEXT PRIMARY KEY,
      remaining INTEGER NOT NULL, expires_at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS capture_samples (seq INTEGER PRIMARY KEY AUTOINCREMENT,
      node TEXT NOT NULL, captured_at INTEGER NOT NULL, output TEXT NOT NULL);
      CREATE INDEX IF NOT EXISTS capture_samples_node ON capture_samples (node, seq);`);
    // Armings stored before test runs existed have no `run` column: it is added, false for them.
    const columns = sql.exec<{ name: string }>("PRAGMA table_info(capture_arms)").toArray();
    if (!columns.some((column) => column.name === "run")) {
      sql.exec("ALTER TABLE capture_arms ADD COLUMN run INTEGER NOT NULL DEFAULT 0");
    }
  }

  /** Arms capture of the node's next `count` calls for `ttlMs` from `now` (epoch ms). */
  arm(node: string, count: number, ttlMs: number, now: number, run = false): Arming {
    const arming = { remaining: count, expiresAt: now + ttlMs, run };
    this.sql.exec(
      "INSERT OR REPLACE INTO capture_arms (node, remaining, expires_at, run) VALUES (?, ?, ?, ?)",
      node,
      arming.remaining,
      arming.expiresAt,
      run ? 1 : 0,
    );
    return arming;
  }

  /** The node's arming while it captures, else null. */
  arming(node: string, now: number): Arming | null {
    const [row] = this.sql
      .exec<{ remaining: number; expires_at: number; run: number }>(
        "SELECT remaining, expires_at, run FROM capture_arms WHERE node = ?",
        node,
      )
      .toArray();
    return row && row.remaining > 0 && row.expires_at > now
      ? { remaining: row.remaining, expiresAt: row.expires_at, run: row.run === 1 }
      : null;
  }

  /**
   * Stores a call's output as a sample if armed; synchronous, so calls never take more than `count`.
   * @returns the arming it used, or null when the node is not armed (the call is then answered 404)
   */
  capture(node: string, output: JsonValue, now: number): Arming | null {
    const arming = this.arming(node, now);
    if (!arming) return null;
    this.sql.exec("UPDATE capture_arms SET remaining = remaining - 1 WHERE node = ?", node);
    this.sql.exec(
      "INSERT INTO capture_samples (node, captured_at, output) VALUES (?, ?, ?)",
      node,
      now,
      JSON.stringify(output),
    );
    this.sql.exec(
      `DELETE FROM capture_samples WHERE node = ? AND (captured_at <= ? OR seq NOT IN
        (SELECT seq FROM capture_samples WHERE node = ? ORDER BY seq DESC LIMIT ?))`,
      node,
      now - CAPTURE.maxAgeMs,
      node,
      CAPTURE.keptPerNode,
    );
    return arming;
  }

  /** One of the node's samples by id, or (no id) its newest; null when there is none. */
  sample(node: string, now: number, id?: string): Sample | null {
    const all = this.samples(node, now);
    return (id === undefined ? all[0] : all.find((sample) => sample.id === id)) ?? null;
  }

  /** The node's samples, newest first, younger than the age limit. */
  samples(node: string, now: number): Sample[] {
    return this.sql
      .exec<{ seq: number; captured_at: number; output: string }>(
        `SELECT seq, captured_at, output FROM capture_samples
          WHERE node = ? AND captured_at > ? ORDER BY seq DESC LIMIT ?`,
        node,
        now - CAPTURE.maxAgeMs,
        CAPTURE.keptPerNode,
      )
      .toArray()
      .map((row) => ({
        id: `smp_${row.seq}`,
        capturedAt: row.captured_at,
        output: JSON.parse(row.output) as JsonValue,
      }));
  }
}
