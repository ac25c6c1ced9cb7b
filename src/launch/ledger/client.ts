/** Gets the workspace's LinkLedger stub: one object per workspace, named by its id. */
import type { AppBindings } from "../../platform/env";
import { namedObject } from "../../platform/object-ids";
import type { LinkLedgerContract } from "./contract";

/** The LinkLedger of `workspaceId` (docs/architecture.md#link-ledger). */
export function linkLedger(
  env: Pick<AppBindings, "LINK_LEDGER">,
  workspaceId: string,
): DurableObjectStub<LinkLedgerContract> {
  return namedObject(env.LINK_LEDGER, workspaceId);
}
