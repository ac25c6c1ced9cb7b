/**
 * `GET /docs`, the API reference (docs/README.md#api-reference): a small page loading Scalar's
 * pinned bundle from the static assets, configured by a JSON data block browsers never execute
 * (docs/architecture.md#the-api-reference-page).
 */
import type { Context, MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";
import { manifestReader } from "./assets-manifest";
import { escapeAttribute, PAGE_START } from "./html";

/** Where scripts/docs-assets.mjs writes the manifest, relative to the assets root. */
export const DOCS_ASSETS_MANIFEST = "/docs-assets/manifest.json";

/** The manifest: `script` e.g. `/docs-assets/scalar-1.72.1.js`, `integrity` its `sha384-…` SRI. */
export type DocsAssets = { version: string; script: string; integrity: string };

/** Scalar options that keep every request on our origin (the Agent and MCP panels call api.scalar.com). */
const SCALAR_CONFIGURATION = {
  withDefaultFonts: false,
  telemetry: false,
  showDeveloperTools: "never",
  hideClientButton: true,
  agent: { disabled: true },
  mcp: { disabled: true },
};

/**
 * The page's Content-Security-Policy (docs/README.md#api-reference), as `secureHeaders` directives:
 * scripts only the pinned bundle (no eval; zod runs without generated code), inline styles (why:
 * docs/architecture.md#the-api-reference-page), images `self` and `data:` (Scalar's icons, our
 * favicon), connections to this origin (the document, "Test Request"); no fonts, base, forms, frames.
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
  return `${PAGE_START}
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

/**
 * Reads the bundle's manifest (docs/README.md#api-reference) from the static assets, once per
 * isolate: `(assets, origin)`, the ASSETS binding and any origin.
 * @returns the manifest's `{version, script, integrity}`
 * @throws {Error} when ASSETS is not bound or the manifest is missing or malformed: the build
 *   (`npm run build:client`, wrangler's build command) did not run, a deployment bug
 */
export const loadDocsAssets = manifestReader(DOCS_ASSETS_MANIFEST, "/docs", (value) => {
  const { version, script, integrity } = value;
  if (typeof version !== "string" || typeof integrity !== "string") return null;
  if (typeof script !== "string" || !script.startsWith("/docs-assets/")) return null;
  return integrity.startsWith("sha384-") ? { version, script, integrity } : null;
});

type DocsEnv = { Bindings: { ASSETS?: Fetcher } };

/**
 * The handlers of `GET /docs` (docs/README.md#api-reference): `secureHeaders` with {@link DOCS_CSP},
 * then the page; `app.get("/docs", ...docsPage({ specUrl: "/openapi.json", title }))`.
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
