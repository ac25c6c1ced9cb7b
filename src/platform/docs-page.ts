/**
 * `GET /docs`, the API reference (docs/README.md#api-reference): our own small HTML page that loads
 * Scalar's browser bundle from the Worker's static assets, at the version package-lock.json pins
 * (copied by scripts/docs-assets.mjs), so it renders with no internet and under a strict CSP.
 *
 * Configuration without inline script: Scalar's standalone bundle reads
 * `<script id="api-reference" data-url data-configuration>`. Ours is a `type="application/json"`
 * data block with an empty body, which browsers never execute, so `script-src 'self'` holds.
 */
import type { Context, MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";
import { escapeAttribute } from "./html";

/** Where scripts/docs-assets.mjs writes the manifest, relative to the assets root. */
export const DOCS_ASSETS_MANIFEST = "/docs-assets/manifest.json";

/**
 * The manifest: `{version, script, integrity}`; `script` is e.g. `/docs-assets/scalar-1.72.1.js`,
 * `integrity` its `sha384-…` Subresource Integrity value.
 */
export type DocsAssets = { version: string; script: string; integrity: string };

/**
 * Scalar options that keep every request on our origin: no fonts from fonts.scalar.com, no
 * telemetry, no Scalar Agent or MCP panel (on for localhost by default; they call api.scalar.com),
 * no developer toolbar, and no button that hands the document's URL to client.scalar.com.
 */
const SCALAR_CONFIGURATION = {
  withDefaultFonts: false,
  telemetry: false,
  showDeveloperTools: "never",
  hideClientButton: true,
  agent: { disabled: true },
  mcp: { disabled: true },
};

/**
 * The page's Content-Security-Policy (docs/README.md#api-reference), as `secureHeaders` directives.
 * - script-src 'self': the pinned bundle only; no inline code and no `'unsafe-eval'` (zod's
 *   `Function("")` probe in the bundle is refused, and zod then runs without generated code).
 * - style-src 'self' 'unsafe-inline': Scalar puts its CSS in at run time as several `<style>`
 *   elements (its stylesheet, the theme Vue renders, component styles) and as `style`
 *   attributes. A nonce would reach only its own stylesheet (via `<meta property="csp-nonce">`),
 *   hashes never reach attributes, and either one makes browsers ignore `'unsafe-inline'`. The
 *   page shows nothing a visitor wrote, so inline CSS opens no way in; scripts stay locked.
 * - img-src 'self' data: the SVG icons in Scalar's CSS are `data:` URLs; so is our empty favicon.
 * - connect-src 'self': `/openapi.json` and the reference's "Test Request" calls to this API.
 * - font-src: unset, so `'none'` from default-src: system fonts only, and the fonts.scalar.com
 *   files (off in SCALAR_CONFIGURATION) would be refused even if asked for.
 * - base-uri, form-action, frame-ancestors 'none': nothing to rebase, submit or frame us.
 */
export const DOCS_CSP = {
  defaultSrc: ["'none'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", "data:"],
  connectSrc: ["'self'"],
  baseUri: ["'none'"],
  formAction: ["'none'"],
  frameAncestors: ["'none'"],
};

/**
 * The HTML document of `GET /docs` (docs/README.md#api-reference).
 * @param assets the built bundle's path and integrity (the manifest)
 * @param options `specUrl` the OpenAPI document (`/openapi.json`), `title` the tab's title
 * @returns a complete document: no script code or CSS in it, one same-origin script with SRI
 */
export function docsPageHtml(
  assets: DocsAssets,
  options: { specUrl: string; title: string },
): string {
  const configuration = escapeAttribute(JSON.stringify(SCALAR_CONFIGURATION));
  const spec = escapeAttribute(options.specUrl);
  const script = `src="${escapeAttribute(assets.script)}" integrity="${escapeAttribute(assets.integrity)}"`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>${escapeAttribute(options.title)}</title>
</head>
<body>
<noscript><p>The reference needs JavaScript; the document is <a href="${spec}">${spec}</a>.</p></noscript>
<script id="api-reference" type="application/json" data-url="${spec}" data-configuration="${configuration}"></script>
<script ${script} defer></script>
</body>
</html>
`;
}

/** The manifest once read; a failed read is not kept, so the next request tries again. */
let manifest: Promise<DocsAssets> | undefined;

/**
 * Reads the manifest of the reference's bundle (docs/README.md#api-reference) from the static
 * assets, once per isolate.
 * @param assets the ASSETS binding
 * @param origin any origin; the binding serves by path
 * @returns the manifest's `{version, script, integrity}`
 * @throws {Error} when ASSETS is not bound or the manifest is missing or malformed: the build
 *   (`npm run build:client`, wrangler's build command) did not run, a deployment bug
 */
export function loadDocsAssets(assets: Fetcher | undefined, origin: string): Promise<DocsAssets> {
  manifest ??= readManifest(assets, origin).catch((error: unknown) => {
    manifest = undefined;
    throw error;
  });
  return manifest;
}

async function readManifest(assets: Fetcher | undefined, origin: string): Promise<DocsAssets> {
  if (!assets) throw new Error("The ASSETS binding is missing; /docs cannot find its bundle.");
  const response = await assets.fetch(new URL(DOCS_ASSETS_MANIFEST, origin));
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(
      `${DOCS_ASSETS_MANIFEST} answered ${response.status}; run \`npm run build:client\`.`,
    );
  }
  const value = (await response.json()) as Partial<DocsAssets>;
  if (
    typeof value.version !== "string" ||
    typeof value.script !== "string" ||
    !value.script.startsWith("/docs-assets/") ||
    typeof value.integrity !== "string" ||
    !value.integrity.startsWith("sha384-")
  ) {
    throw new Error(`${DOCS_ASSETS_MANIFEST} is malformed; run \`npm run build:client\`.`);
  }
  return { version: value.version, script: value.script, integrity: value.integrity };
}

type DocsEnv = { Bindings: { ASSETS?: Fetcher } };

/**
 * The handlers of `GET /docs` (docs/README.md#api-reference): `secureHeaders` with {@link DOCS_CSP}
 * (also `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer`, no framing), then the
 * page. Use as `app.get("/docs", ...docsPage({ specUrl: "/openapi.json", title }))`.
 * @param options `specUrl` the OpenAPI document's path, `title` the tab's title
 * @returns `[middleware, handler]`; the handler throws (a 500) if the bundle was not built
 */
export function docsPage(options: {
  specUrl: string;
  title: string;
}): [MiddlewareHandler<DocsEnv>, (c: Context<DocsEnv>) => Promise<Response>] {
  const headers = secureHeaders({
    contentSecurityPolicy: DOCS_CSP,
    xFrameOptions: "DENY",
    // HSTS is a decision for the whole host, not for one page.
    strictTransportSecurity: false,
  });
  return [
    headers,
    async (c) => {
      const assets = await loadDocsAssets(c.env.ASSETS, new URL(c.req.url).origin);
      c.header("cache-control", "no-cache");
      return c.html(docsPageHtml(assets, options));
    },
  ];
}
