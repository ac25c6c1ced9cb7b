import type { AppBindings } from "../../platform/env";
import type { WorkspaceLimiter } from "./object";

/** The workspace's WorkspaceLimiter stub (one object per workspace, named by its id). */
export function workspaceLimiter(
  env: Pick<AppBindings, "WORKSPACE_LIMITER">,
  workspaceId: string,
): DurableObjectStub<WorkspaceLimiter> {
  return env.WORKSPACE_LIMITER.get(env.WORKSPACE_LIMITER.idFromName(workspaceId));
}
