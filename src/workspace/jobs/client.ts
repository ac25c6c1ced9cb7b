/** Gets a MaintenanceJob stub: one object per job, named by the job's id. */
import type { AppBindings } from "../../platform/env";
import type { MaintenanceJobContract } from "./contract";

/** The object that runs job `id` (docs/architecture.md#maintenance-jobs). */
export function maintenanceJob(
  env: Pick<AppBindings, "MAINTENANCE_JOB">,
  id: string,
): DurableObjectStub<MaintenanceJobContract> {
  return env.MAINTENANCE_JOB.get(env.MAINTENANCE_JOB.idFromName(id));
}
