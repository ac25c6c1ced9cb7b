/** Gets the workspace's LinkLedger stub: one object per workspace, named by its id. */
import type { AppBindings } from "../../platform/env";
import type { LinkLedgerContract } from "./contract";

/** The LinkLedger of `workspaceId` (docs/architecture.md#link-ledger). */
export function linkLedger(
  env: Pick<AppBindings, "LINK_LEDGER">,
  workspaceId: string,
): DurableObjectStub<LinkLedgerContract> {
  return env.LINK_LEDGER.get(env.LINK_LEDGER.idFromName(workspaceId));
}
