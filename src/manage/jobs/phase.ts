/** One phase of a background job (docs/architecture.md#maintenance-jobs). */
import type { AppBindings } from "../../platform/env";

/**
 * Does the next page of a phase's work and says where it got to.
 * @param cursor where the previous page ended (null: the phase's start)
 * @returns the cursor to go on from (null: the phase is done) and what this page did, by name
 * @throws anything that went wrong: the job retries the page, with backoff, a few times
 */
export type JobPhase = (
  env: AppBindings,
  cursor: string | null,
) => Promise<{ cursor: string | null; counts: Record<string, number> }>;
