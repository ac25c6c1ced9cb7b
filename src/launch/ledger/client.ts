/** Gets the workspace's LinkLedger stub: one object per workspace, named by its id. */
import type { AppBindings } from "../../platform/env";
import type { LinkLedgerContract } from "./contract";

type Namespace = AppBindings["LINK_LEDGER"];

/** Workspaces whose object id is kept per namespace; the map starts over past it. */
const CACHED_IDS = 10_000;
/**
 * Object ids by workspace id, per namespace binding, for the isolate's life: `idFromName` hashes
 * the name on every call, and an id (unlike a stub) may serve any request.
 */
const ids = new WeakMap<Namespace, Map<string, DurableObjectId>>();

/** The LinkLedger of `workspaceId` (docs/architecture.md#link-ledger). */
export function linkLedger(
  env: Pick<AppBindings, "LINK_LEDGER">,
  workspaceId: string,
): DurableObjectStub<LinkLedgerContract> {
  const namespace = env.LINK_LEDGER;
  let known = ids.get(namespace);
  if (!known) {
    known = new Map();
    ids.set(namespace, known);
  }
  let id = known.get(workspaceId);
  if (!id) {
    if (known.size >= CACHED_IDS) known.clear();
    id = namespace.idFromName(workspaceId);
    known.set(workspaceId, id);
  }
  return namespace.get(id);
}
