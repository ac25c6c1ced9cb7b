/** One phase of a background job (docs/architecture.md#maintenance-jobs). */
import type { AppBindings } from "../../platform/env";
import type { JobParams } from "./contract";

/**
 * Does the next page of a phase's work and says where it got to.
 * @param cursor where the previous page ended (null: the phase's start)
 * @param params what the job works on
 * @returns the cursor to go on from (null: the phase is done) and what this page did, by name
 * @throws anything that went wrong: the job retries the page, with backoff, a few times
 */
export type JobPhase = (
  env: AppBindings,
  cursor: string | null,
  params: JobParams,
) => Promise<{ cursor: string | null; counts: Record<string, number> }>;
