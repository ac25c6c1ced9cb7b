/**
 * The isolate's caches of values that never change once made (object ids by name, execution
 * orders, template paths, widget keys' facts): bounded by starting over rather than by tracking
 * use, since a miss only costs the value's making again.
 */

/** A `Map` that, holding `limit` entries, forgets them all before it takes a new key. */
export class BoundedMap<K, V> extends Map<K, V> {
  /** @param limit entries kept at most (unbounded by default: keys from a small, fixed set) */
  constructor(private readonly limit = Number.POSITIVE_INFINITY) {
    super();
  }

  override set(key: K, value: V): this {
    if (this.size >= this.limit && !this.has(key)) this.clear();
    return super.set(key, value);
  }

  /** The value kept for `key`, made by `make` and kept when there is none. */
  kept(key: K, make: (key: K) => V): V {
    let value = this.get(key);
    if (value === undefined && !this.has(key)) {
      value = make(key);
      this.set(key, value);
    }
    return value as V;
  }
}

/** The map `owner` has in `maps`, made empty (holding at most `limit`) when it has none. */
export function mapOf<O extends object, K, V>(
  maps: WeakMap<O, BoundedMap<K, V>>,
  owner: O,
  limit?: number,
): BoundedMap<K, V> {
  let map = maps.get(owner);
  if (!map) {
    map = new BoundedMap(limit);
    maps.set(owner, map);
  }
  return map;
}
