/**
 * Durable Object stubs by name with the object's id kept (docs/architecture.md#request-path):
 * `idFromName` hashes the name on every call, and an id, unlike a stub, may serve any request.
 */

/** Names whose object id is kept per namespace; the map starts over past it. */
const CACHED_IDS = 10_000;
/** Object ids by name, per namespace binding, for the isolate's life. */
const ids = new WeakMap<object, Map<string, DurableObjectId>>();

/**
 * The stub of the object named `name` in `namespace`, its id made once per isolate.
 * @returns a new stub (a stub cannot outlive the request that made it)
 */
export function namedObject<T extends Rpc.DurableObjectBranded | undefined>(
  namespace: DurableObjectNamespace<T>,
  name: string,
): DurableObjectStub<T> {
  let known = ids.get(namespace);
  if (!known) {
    known = new Map();
    ids.set(namespace, known);
  }
  let id = known.get(name);
  if (!id) {
    if (known.size >= CACHED_IDS) known.clear();
    id = namespace.idFromName(name);
    known.set(name, id);
  }
  return namespace.get(id);
}
