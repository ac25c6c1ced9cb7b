/**
 * Erasure requests (docs/security.md#erasure): a workspace's widget key (its backend acting on the
 * person's request) or an Owner or Admin asks for everything of one person to be erased; a
 * MaintenanceJob does it in the background, and either may ask how far it got.
 */
import type { AppBindings } from "../platform/env";
import { notFound } from "../platform/errors";
import { isoTime, isoTimeOrNull, newId } from "../platform/ids";
import { maintenanceJob } from "./jobs/client";
import type { JobView } from "./jobs/contract";

/** The counts an erasure reports, each 0 until it has erased something of that kind. */
const COUNTED = [
  "links",
  "conversations",
  "messages",
  "executions",
  "events",
  "deliveries",
] as const;
type ErasureCounts = Record<(typeof COUNTED)[number], number>;

/** An erasure as the API shows it; the person's id only in the answer that requested it. */
export type ErasureView = {
  id: string;
  status: JobView["status"];
  counts: ErasureCounts;
  createdAt: string;
  completedAt: string | null;
};

function shown(job: JobView): ErasureView {
  const counts = Object.fromEntries(
    COUNTED.map((name) => [name, job.counts[name] ?? 0]),
  ) as ErasureCounts;
  return {
    id: job.id,
    status: job.status,
    counts,
    createdAt: isoTime(job.createdAt),
    completedAt: isoTimeOrNull(job.completedAt),
  };
}

/** Starts erasing the person of `externalId` in the workspace; it runs in the background. */
export async function requestErasure(
  env: AppBindings,
  workspaceId: string,
  externalId: string,
): Promise<ErasureView & { externalId: string }> {
  const id = newId("era");
  const job = await maintenanceJob(env, id).start(id, "erasure", { workspaceId, externalId });
  return { ...shown(job), externalId };
}

/** The workspace's erasure `id`. @throws ApiError 404 not_found for another's or none */
export async function getErasure(
  env: AppBindings,
  workspaceId: string,
  id: string,
): Promise<ErasureView> {
  const job = /^era_[0-9A-Za-z]{22}$/.test(id) ? await maintenanceJob(env, id).view(id) : null;
  if (job?.kind !== "erasure" || job.workspaceId !== workspaceId) {
    throw notFound("No such erasure in this workspace.");
  }
  return shown(job);
}
