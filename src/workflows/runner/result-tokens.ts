/**
 * Result handles of timed-out calls (docs/webhooks.md#result-handles): 24 h bearer tokens, never in
 * a URL (docs/security.md#capability-urls), `<workflow id>[-<k>].<secret>` naming the runner shard
 * (docs/scaling.md#runner-shards); the runner keeps only their SHA-256.
 */
import { randomBase64Url, sha256Hex } from "../../platform/crypto";
import { idOnShard, shardOfId } from "./shards";

/** How long a result handle is valid (ms). */
export const RESULT_TOKEN_TTL_MS = 24 * 60 * 60_000;
const TOKEN = /^(wf_[0-9A-Za-z]{1,40})(?:-([1-9]\d?))?\.[0-9A-Za-z_-]{43}$/;

/** The workflow and the runner shard a well-formed token names, or null. */
export function runnerOfToken(token: string): { workflowId: string; shard: number } | null {
  const match = TOKEN.exec(token);
  if (!match?.[1]) return null;
  return { workflowId: match[1], shard: Number(match[2] ?? 0) };
}

/** The runner's table of result handles. */
export class ResultTokens {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS result_tokens (hash TEXT PRIMARY KEY,
      execution_id TEXT NOT NULL, expires_at INTEGER NOT NULL);`);
  }

  /** A new token for the execution, naming this shard; expired ones are swept on the way. */
  async issue(workflowId: string, executionId: string, now = Date.now()): Promise<string> {
    const token = `${idOnShard(workflowId, shardOfId(executionId))}.${randomBase64Url(32)}`;
    this.sql.exec("DELETE FROM result_tokens WHERE expires_at <= ?", now);
    this.sql.exec(
      "INSERT INTO result_tokens (hash, execution_id, expires_at) VALUES (?, ?, ?)",
      await sha256Hex(token),
      executionId,
      now + RESULT_TOKEN_TTL_MS,
    );
    return token;
  }

  /** The execution a valid token is for, or null (unknown or expired). */
  async find(token: string, now = Date.now()): Promise<string | null> {
    const [row] = this.sql
      .exec<{ execution_id: string; expires_at: number }>(
        "SELECT execution_id, expires_at FROM result_tokens WHERE hash = ?",
        await sha256Hex(token),
      )
      .toArray();
    return row && row.expires_at > now ? row.execution_id : null;
  }
}
