// The API reference's browser bundle, served from the Worker's own static assets so `GET /docs`
// needs no CDN (docs/README.md#api-reference). The installed @scalar/api-reference (the version
// package-lock.json pins) is copied to dist/client/docs-assets/scalar-<version>.js, and
// docs-assets/manifest.json tells the Worker its path and Subresource Integrity hash.
import { createHash } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** Under the assets directory; the page's URLs are `/${DIRECTORY}/…`. */
const DIRECTORY = "docs-assets";

/**
 * Copies Scalar's standalone browser bundle under a versioned name and writes the manifest the
 * Worker reads. Older copies are removed, so only the installed version is ever served.
 * @throws {Error} when the installed version is not the one package-lock.json pins
 * @param {string} root the project root (where node_modules is)
 * @param {string} output the assets directory (dist/client)
 * @returns {Promise<{version: string, script: string, integrity: string}>} the manifest: the
 *   package version, the script's URL path and its `sha384-…` integrity value
 */
export async function buildDocsAssets(root, output) {
  const pkgDir = join(root, "node_modules", "@scalar", "api-reference");
  const { version } = JSON.parse(await readFile(join(pkgDir, "package.json"), "utf8"));
  if (typeof version !== "string" || !/^[0-9A-Za-z.+-]+$/.test(version)) {
    throw new Error(`@scalar/api-reference has no usable version (${version})`);
  }
  const lock = JSON.parse(await readFile(join(root, "package-lock.json"), "utf8"));
  const pinned = lock.packages?.["node_modules/@scalar/api-reference"]?.version;
  if (pinned !== version) {
    throw new Error(
      `node_modules has @scalar/api-reference ${version}, package-lock.json pins ${pinned}: ` +
        "run npm ci",
    );
  }
  const bundle = await readFile(join(pkgDir, "dist", "browser", "standalone.js"));
  const name = `scalar-${version}.js`;
  const integrity = `sha384-${createHash("sha384").update(bundle).digest("base64")}`;
  const manifest = { version, script: `/${DIRECTORY}/${name}`, integrity };

  const directory = join(output, DIRECTORY);
  await rm(directory, { recursive: true, force: true });
  await mkdir(directory, { recursive: true });
  await writeFile(join(directory, name), bundle);
  await writeFile(join(directory, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
