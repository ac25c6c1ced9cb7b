/**
 * MaintenanceJob: one SQLite-backed Durable Object per background job (named by the job's id),
 * for work too long for one request (docs/architecture.md#maintenance-jobs).
 *
 * Responsibilities:
 * - Keeping the job's state in its SQLite storage: its kind, phase, cursor, counts and status, so
 *   a restart or deploy loses nothing.
 * - Running the job a page at a time on its alarm: each page's progress is stored before the next
 *   alarm is set, and a page repeated after a crash is harmless (every phase skips what is done).
 * - Retrying a failed page with backoff (1, 2, 4, 8 s) and then giving up: `failed`, with the error.
 * - One job at a time: an object asked to start while its job runs answers with that job; the
 *   operator's reseal uses one object (`reseal`) for every run, keeping the last 20 ended ones.
 */
import { DurableObject } from "cloudflare:workers";
import type { AppBindings } from "../../platform/env";
import { log } from "../../platform/log";
import { ERASURE_PHASES } from "../erasure";
import { RESEAL_PHASES } from "../reseal";
import type { JobKind, JobParams, JobView, MaintenanceJobContract } from "./contract";
import type { JobPhase } from "./phase";

const PHASES: Record<JobKind, JobPhase[]> = { reseal: RESEAL_PHASES, erasure: ERASURE_PHASES };
/** Failed attempts of one page before the job fails. */
const MAX_ATTEMPTS = 5;
/** Ended jobs an object keeps, newest first, after a new one started. */
const HISTORY = 20;

type Stored = JobView & {
  params: JobParams;
  phase: number;
  cursor: string | null;
  attempts: number;
};

/** A background job (docs/architecture.md#maintenance-jobs); see the file's docstring. */
export class MaintenanceJob extends DurableObject<AppBindings> implements MaintenanceJobContract {
  async start(id: string, kind: JobKind, params: JobParams = {}): Promise<JobView> {
    const existing = await this.load();
    if (existing?.status === "running") return view(existing);
    if (existing) {
      const history = (await this.ctx.storage.get<JobView[]>("history")) ?? [];
      await this.ctx.storage.put("history", [view(existing), ...history].slice(0, HISTORY));
    }
    const job: Stored = {
      id,
      kind,
      workspaceId: params.workspaceId ?? null,
      params,
      status: "running",
      counts: {},
      error: null,
      createdAt: Date.now(),
      completedAt: null,
      phase: 0,
      cursor: null,
      attempts: 0,
    };
    await this.ctx.storage.put("job", job);
    await this.ctx.storage.setAlarm(Date.now());
    return view(job);
  }

  async view(id: string): Promise<JobView | null> {
    const job = await this.load();
    if (job?.id === id) return view(job);
    const history = (await this.ctx.storage.get<JobView[]>("history")) ?? [];
    const found = history.find((ended) => ended.id === id);
    return found ? view(found) : null;
  }

  /** Runs the next page of the job, stores what it did, and sets the alarm for the next one. */
  override async alarm(): Promise<void> {
    const job = await this.load();
    if (job?.status !== "running") return;
    const phase = PHASES[job.kind][job.phase];
    if (!phase) return this.save(ended({ ...job, status: "succeeded" }));
    try {
      const page = await phase(this.env, job.cursor, job.params);
      const counts = { ...job.counts };
      for (const [name, n] of Object.entries(page.counts)) counts[name] = (counts[name] ?? 0) + n;
      const done = page.cursor === null;
      await this.save(
        { ...job, counts, attempts: 0, cursor: page.cursor, phase: job.phase + (done ? 1 : 0) },
        Date.now(),
      );
    } catch (error) {
      const attempts = job.attempts + 1;
      log("warn", "maintenance_job_page_failed", { jobId: job.id, attempts, error });
      if (attempts >= MAX_ATTEMPTS) {
        const message = error instanceof Error ? error.message : String(error);
        return this.save(ended({ ...job, status: "failed", error: message }));
      }
      await this.save({ ...job, attempts }, Date.now() + 1000 * 2 ** (attempts - 1));
    }
  }

  private load(): Promise<Stored | undefined> {
    return this.ctx.storage.get<Stored>("job");
  }

  /** Stores the job; with `next`, sets the alarm that runs its next page then. */
  private async save(job: Stored, next?: number): Promise<void> {
    await this.ctx.storage.put("job", job);
    if (next !== undefined) await this.ctx.storage.setAlarm(next);
  }
}

/** The job as shown; a job stored as `completed` (its word before it was `succeeded`) reads so. */
function view(job: JobView): JobView {
  const { id, kind, workspaceId, counts, error, createdAt, completedAt } = job;
  const status = (job.status as string) === "completed" ? "succeeded" : job.status;
  return { id, kind, workspaceId, status, counts, error, createdAt, completedAt };
}

/** The job as it ends: its time, and of its params only the workspace (never a person's id). */
function ended(job: Stored): Stored {
  const params = job.params.workspaceId ? { workspaceId: job.params.workspaceId } : {};
  return { ...job, params, completedAt: Date.now() };
}
