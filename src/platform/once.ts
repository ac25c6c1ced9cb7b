/**
 * Values built on first use: what the Worker's hot paths (the launch API, the webhook trigger, the
 * chat) never need is kept out of its start-up, which every new isolate pays before its first
 * request (docs/performance.md#start-up).
 */

/**
 * `build`'s result, built on the first call of the returned function and kept for the isolate.
 * @param build called once, on the first call; what it throws is thrown to that call, and the
 *   next call builds again
 */
export function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}
