/**
 * Manifests the build writes into the static assets (`npm run build:client`): the hashed names of
 * the chat's bundles (docs/chat.md#assets-and-caching), the API reference's pinned bundle
 * (docs/README.md#api-reference).
 */

/**
 * A reader of the manifest at `path`, read from the ASSETS binding once per isolate; a failed read
 * is not kept, so the next request tries again.
 * @param page the page that needs it, for the error (`/chat`)
 * @param check the manifest's fields, or null when it is malformed
 * @returns `(assets, origin)`: the ASSETS binding and any origin (the binding serves by path)
 * @throws {Error} when ASSETS is not bound or the manifest is missing or malformed: the build did
 *   not run, a deployment bug
 */
export function manifestReader<T>(
  path: string,
  page: string,
  check: (value: Record<string, unknown>) => T | null,
): (assets: Fetcher | undefined, origin: string) => Promise<T> {
  let manifest: Promise<T> | undefined;
  const read = async (assets: Fetcher | undefined, origin: string): Promise<T> => {
    if (!assets) throw new Error(`The ASSETS binding is missing; ${page} cannot find its bundles.`);
    const response = await assets.fetch(new URL(path, origin));
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`${path} answered ${response.status}; run \`npm run build:client\`.`);
    }
    const value: unknown = await response.json();
    const checked =
      typeof value === "object" && value !== null ? check(value as Record<string, unknown>) : null;
    if (checked === null) throw new Error(`${path} is malformed; run \`npm run build:client\`.`);
    return checked;
  };
  return (assets, origin) => {
    manifest ??= read(assets, origin).catch((error: unknown) => {
      manifest = undefined;
      throw error;
    });
    return manifest;
  };
}
