/**
 * The workspace's LinkLedger as a launch route calls it (docs/api/launch.md#rate-limit): each
 * call is counted against the widget key's rate limit inside the ledger's one RPC, so a route goes
 * from `c.var.ledger` here, and from here to the ledger's contract (ledger/contract.ts).
 */
import type { WidgetKeyPrincipal } from "../auth";
import type { Link, NewLink } from "../db/schema";
import type {
  Admission,
  CreateOutcome,
  Guarded,
  IdempotentCreate,
  LedgerResult,
  LinkLedgerApi,
} from "./ledger/contract";

/** The ledger calls of the launch API, each counted: only the work's result comes back. */
export type CountedLedger = {
  /** Marks an active link ended (the call was counted by its look-up). */
  endLink(workspaceId: string, linkId: string, endedAt: number, reason: "server"): Promise<void>;
  lookupLink(key: WidgetKeyPrincipal, linkId: string): Promise<LedgerResult<Link>>;
  revokeLink(key: WidgetKeyPrincipal, linkId: string): Promise<LedgerResult<null>>;
  /** Counts a call that does its work outside the ledger (a list); refused calls throw. */
  admit(key: WidgetKeyPrincipal): Promise<void>;
  createLink(
    key: WidgetKeyPrincipal,
    link: NewLink,
    idempotency?: IdempotentCreate,
  ): Promise<LedgerResult<CreateOutcome>>;
};

/**
 * The counted face of `ledger` for one call.
 * @param ledger the workspace's LinkLedger stub
 * @param apply applies each admission the ledger answers (headers; throws 401 or 429 when it
 *   refuses), once per counted call
 */
export function countedLedger(
  ledger: LinkLedgerApi,
  apply: (admission: Admission) => void,
): CountedLedger {
  const admitted = async <T>(call: Promise<Guarded<T>>): Promise<LedgerResult<T>> => {
    const guarded = await call;
    apply(guarded.admission);
    if (!("result" in guarded)) throw new Error("a refused admission has thrown");
    return guarded.result;
  };
  return {
    endLink: (workspaceId, linkId, endedAt, reason) =>
      ledger.endLink(workspaceId, linkId, endedAt, reason),
    admit: async (principal) => apply(await ledger.admit(principal)),
    createLink: (principal, link, idempotency) =>
      admitted(ledger.createLink(principal, link, idempotency)),
    lookupLink: (principal, linkId) => admitted(ledger.lookupLink(principal, linkId)),
    revokeLink: (principal, linkId) => admitted(ledger.revokeLink(principal, linkId)),
  };
}
