/**
 * Idempotency keys of link creates (docs/api/launch.md#idempotent-requests), per widget key, 24 h,
 * in the ledger's SQLite. A record is written before the link's D1 write and marked done after, so
 * the next call tells a restart between them apart by looking in D1. Only the Worker-sealed answer
 * (it holds the link's token) and the body's SHA-256 are stored; `in_use` marks live in memory.
 */
import { type KeyConfig, keyring, resealSecret } from "../../platform/secret-box";
import {
  answerAad,
  type CreateOutcome,
  type IdempotentCreate,
  type LedgerResult,
  type Refusal,
} from "./contract";

/** How long a key is remembered, from its first call (ms). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;

/** What the key's record says about a new call with it. */
export type Claim =
  | { kind: "fresh" }
  | { kind: "in_use" }
  | { kind: "reused" }
  | { kind: "replay"; sealedAnswer: string }
  /** Written before a restart, not finished: the caller checks D1 for `linkId`. */
  | { kind: "unfinished"; linkId: string; sealedAnswer: string };

type Row = { body_hash: string; link_id: string; answer: string; state: string };

/** The idempotency keys of one workspace's creates. */
export class IdempotencyKeys {
  /** Calls under way, as `keyId\nidempotency key`. */
  private readonly inFlight = new Set<string>();

  /** @param keys the sealing keys, to reseal stored answers (the Worker seals them) */
  constructor(
    private readonly sql: SqlStorage,
    private readonly keys: KeyConfig,
  ) {
    sql.exec(`CREATE TABLE IF NOT EXISTS idempotency (key_id TEXT NOT NULL, idem_key TEXT NOT NULL,
        body_hash TEXT NOT NULL, link_id TEXT NOT NULL, answer TEXT NOT NULL, state TEXT NOT NULL,
        expires_at INTEGER NOT NULL, PRIMARY KEY (key_id, idem_key));
      CREATE INDEX IF NOT EXISTS idempotency_expiry ON idempotency (expires_at);`);
  }

  /** Reads the key's record at `now` (epoch ms), marking the call under way; sync, so one is fresh. */
  claim(keyId: string, request: IdempotentCreate, now: number): Claim {
    this.sql.exec("DELETE FROM idempotency WHERE expires_at <= ?", now);
    const id = `${keyId}\n${request.key}`;
    if (this.inFlight.has(id)) return { kind: "in_use" };
    const row = this.sql
      .exec<Row>(
        "SELECT body_hash, link_id, answer, state FROM idempotency WHERE key_id = ? AND idem_key = ?",
        keyId,
        request.key,
      )
      .toArray()[0];
    if (row && row.body_hash !== request.bodyHash) return { kind: "reused" };
    if (row?.state === "done") return { kind: "replay", sealedAnswer: row.answer };
    this.inFlight.add(id);
    return row
      ? { kind: "unfinished", linkId: row.link_id, sealedAnswer: row.answer }
      : { kind: "fresh" };
  }

  /** Records the call before its link is written (state `writing`), remembered for 24 h. */
  record(keyId: string, request: IdempotentCreate, linkId: string, now: number): void {
    this.sql.exec(
      "INSERT OR REPLACE INTO idempotency (key_id, idem_key, body_hash, link_id, answer, state, expires_at) VALUES (?, ?, ?, ?, ?, 'writing', ?)",
      keyId,
      request.key,
      request.bodyHash,
      linkId,
      request.sealedAnswer,
      now + IDEMPOTENCY_TTL_MS,
    );
  }

  /** The link is written: later calls with the key replay its answer. */
  finish(keyId: string, idempotencyKey: string): void {
    this.sql.exec(
      "UPDATE idempotency SET state = 'done' WHERE key_id = ? AND idem_key = ?",
      keyId,
      idempotencyKey,
    );
    this.inFlight.delete(`${keyId}\n${idempotencyKey}`);
  }

  /** Reseals remembered answers (docs/security.md#rotating-keys), not rows changed meanwhile; how many. */
  async reseal(workspaceId: string, now: number): Promise<number> {
    const ring = await keyring(this.keys);
    const rows = this.sql
      .exec<{ key_id: string; idem_key: string; answer: string }>(
        "SELECT key_id, idem_key, answer FROM idempotency WHERE expires_at > ?",
        now,
      )
      .toArray();
    let resealed = 0;
    for (const row of rows) {
      const aad = answerAad(workspaceId, row.key_id, row.idem_key);
      const answer = await resealSecret(ring, row.answer, aad);
      if (answer === null) continue;
      const changed = this.sql.exec(
        "UPDATE idempotency SET answer = ? WHERE key_id = ? AND idem_key = ? AND answer = ?",
        answer,
        row.key_id,
        row.idem_key,
        row.answer,
      ).rowsWritten;
      resealed += changed > 0 ? 1 : 0;
    }
    return resealed;
  }

  /** The call was refused or failed: nothing is remembered, a retry runs afresh. */
  abandon(keyId: string, idempotencyKey: string): void {
    this.sql.exec(
      "DELETE FROM idempotency WHERE key_id = ? AND idem_key = ?",
      keyId,
      idempotencyKey,
    );
    this.inFlight.delete(`${keyId}\n${idempotencyKey}`);
  }
}

/** What `createIdempotently` needs of the ledger. */
export type IdempotentWork = {
  /** Runs the create's checks and write; `beforeWrite` runs once every check has passed. */
  create(beforeWrite: () => void): Promise<LedgerResult<CreateOutcome>>;
  /** Whether the link of an unfinished record reached D1. */
  written(linkId: string): Promise<boolean>;
  /** The id of the link this call would create. */
  linkId: string;
};

/** A create under an idempotency key: replays, refuses a reused or busy key, or runs the create. */
export async function createIdempotently(
  keys: IdempotencyKeys,
  keyId: string,
  request: IdempotentCreate,
  work: IdempotentWork,
): Promise<LedgerResult<CreateOutcome>> {
  const claim = keys.claim(keyId, request, Date.now());
  const refusal = claimRefusal(claim);
  if (refusal) return { ok: false, refusal };
  if (claim.kind === "replay") return replayed(claim.sealedAnswer);
  try {
    if (claim.kind === "unfinished" && (await work.written(claim.linkId))) {
      keys.finish(keyId, request.key);
      return replayed(claim.sealedAnswer);
    }
    const now = Date.now();
    const result = await work.create(() => keys.record(keyId, request, work.linkId, now));
    if (result.ok) keys.finish(keyId, request.key);
    else keys.abandon(keyId, request.key);
    return result;
  } catch (error) {
    keys.abandon(keyId, request.key);
    throw error;
  }
}

const replayed = (sealedAnswer: string): LedgerResult<CreateOutcome> => ({
  ok: true,
  value: { replayed: true, sealedAnswer },
});

/** The refusal a claim earns, if any. */
function claimRefusal(claim: Claim): Refusal | null {
  if (claim.kind === "reused") {
    return {
      status: 422,
      code: "idempotency_key_reused",
      message: "This Idempotency-Key was used with another request body; use a new key.",
    };
  }
  if (claim.kind === "in_use") {
    return {
      status: 409,
      code: "idempotency_key_in_use",
      message: "A request with this Idempotency-Key is still being processed; retry shortly.",
      retryAfterSeconds: 1,
    };
  }
  return null;
}
