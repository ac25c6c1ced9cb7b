/**
 * Admission of the ledger's calls (docs/api/launch.md#rate-limit): a revoked widget key is refused,
 * and each key's calls (and each member's dashboard previews) are counted in the exact sliding
 * window of the launch API's rate limit (docs/api/launch.md#rate-limit), persisted by `RateLimitStore`.
 */
import type { WidgetKeyPrincipal } from "../../auth";
import type { RateLimitStore } from "../../platform/rate-limit-store";
import type { RateLimitDecision } from "../../platform/sliding-window";
import type { LaunchLimits } from "../limits";
import type { Admission, Guarded, LedgerResult } from "./contract";
import type { KeyRevocations } from "./key-revocations";

/** Counts calls per key or member, refusing revoked keys. */
export class Admissions {
  constructor(
    private readonly keys: KeyRevocations,
    private readonly rateLimits: RateLimitStore,
    private readonly limits: LaunchLimits,
  ) {}

  /** Counts one call of the key (docs/api/launch.md#rate-limit) unless the key is revoked or over its limit. */
  async admit(key: Pick<WidgetKeyPrincipal, "keyId">): Promise<Admission> {
    if (await this.keys.isRevoked(key.keyId)) return { admitted: false, reason: "key_revoked" };
    return this.count(key.keyId);
  }

  /**
   * `admit` without awaiting, when the key's revocation and its window are in memory (every call
   * after its first); undefined, and nothing counted, when they are not.
   */
  admitNow(key: Pick<WidgetKeyPrincipal, "keyId">): Admission | undefined {
    const revoked = this.keys.known(key.keyId);
    if (revoked === undefined) return undefined;
    if (revoked) return { admitted: false, reason: "key_revoked" };
    const { rateLimitPerWindow, rateLimitWindowMs } = this.limits;
    const rateLimit = this.rateLimits.attemptLoaded(
      key.keyId,
      rateLimitPerWindow,
      rateLimitWindowMs,
    );
    return rateLimit && counted(rateLimit);
  }

  /** Counts one call of `subject` (a key's id, or a member's for its previews) in its window. */
  async count(subject: string): Promise<Admission> {
    const { rateLimitPerWindow, rateLimitWindowMs } = this.limits;
    return counted(await this.rateLimits.attempt(subject, rateLimitPerWindow, rateLimitWindowMs));
  }
}

/** The admission a rate-limit decision makes. */
function counted(rateLimit: RateLimitDecision): Admission {
  return rateLimit.allowed
    ? { admitted: true, rateLimit }
    : { admitted: false, reason: "rate_limited", rateLimit };
}

/** Runs `run` once the call was admitted (`counted`); a refused call does no work. */
export async function guarded<T>(
  counted: Promise<Admission>,
  run: () => Promise<LedgerResult<T>>,
): Promise<Guarded<T>> {
  const admission = await counted;
  return admission.admitted ? { admission, result: await run() } : { admission };
}
