/**
 * Durable Object stubs by name with the object's id kept (docs/architecture.md#request-path):
 * `idFromName` hashes the name on every call, and an id, unlike a stub, may serve any request.
 */

import { type BoundedMap, mapOf } from "./bounded-map";

/** Names whose object id is kept per namespace; the map starts over past it. */
const CACHED_IDS = 10_000;
/** Object ids by name, per namespace binding, for the isolate's life. */
const ids = new WeakMap<object, BoundedMap<string, DurableObjectId>>();

/**
 * The stub of the object named `name` in `namespace`, its id made once per isolate.
 * @returns a new stub (a stub cannot outlive the request that made it)
 */
export function namedObject<T extends Rpc.DurableObjectBranded | undefined>(
  namespace: DurableObjectNamespace<T>,
  name: string,
): DurableObjectStub<T> {
  const known = mapOf(ids, namespace, CACHED_IDS);
  return namespace.get(known.kept(name, (named) => namespace.idFromName(named)));
}
