/**
 * The MaintenanceJob Durable Object's RPC interface (docs/architecture.md#maintenance-jobs): one
 * object per job (named by its id), which runs the job's phases a page at a time on its alarm, so
 * a job survives restarts and deploys and resumes where it was.
 */

/**
 * What a job does: reseal every stored value under the current key
 * (docs/security.md#rotating-keys), or erase a person (docs/security.md#erasure).
 */
export type JobKind = "reseal" | "erasure";

/**
 * What a job works on: an erasure's workspace and person. The person's id is kept only while the
 * job runs; once it has ended, the job's record holds nothing of them.
 */
export type JobParams = { workspaceId?: string; externalId?: string };

/** A job as the operator API shows it; times in epoch ms. */
export type JobView = {
  id: string;
  kind: JobKind;
  /** The workspace an erasure is for; null for the operator's jobs. */
  workspaceId: string | null;
  /** `succeeded`: the word executions and deliveries use for a run that ended well. */
  status: "running" | "succeeded" | "failed";
  /** What was done so far, by what (e.g. `secrets`, `executions`). */
  counts: Record<string, number>;
  /** Why a failed job stopped (after its retries), else null. */
  error: string | null;
  createdAt: number;
  completedAt: number | null;
};

/** The object's RPC methods. */
export interface MaintenanceJobContract extends Rpc.DurableObjectBranded {
  /**
   * Starts job `id` (its first phase runs at once, on the alarm). While the object's job runs, it
   * is returned instead, so asking again never runs two at once; an ended job is kept in the
   * object's history (its last 20) and the new one starts.
   */
  start(id: string, kind: JobKind, params?: JobParams): Promise<JobView>;
  /** Job `id` (running, or among the ended ones kept), or null when this object holds none. */
  view(id: string): Promise<JobView | null>;
}
