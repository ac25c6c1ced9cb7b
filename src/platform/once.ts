/** Values built on first use, kept out of the Worker's start-up (docs/performance.md#start-up). */

/** `build`'s result, built on first call and kept for the isolate; a throw is retried next call. */
export function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}
