// Builds the browser files served by the Worker (docs/chat.md#assets-and-caching), all into
// dist/client: the chat page's script and styles, its rating's (loaded after the end) and the widget, bundled by esbuild from
// src/client into self-contained IIFE scripts (no module loading on third-party pages) under
// hashed names in assets/ (a year's immutable cache, `_headers`), with chat-assets.json naming
// them for the Worker; `/widget.js`, the stable loader customers embed, revalidated on each load;
// the sign-in page's script; the widget preview page's styles; the API reference's bundle (./docs-assets.mjs) and the dashboard.
// Paths come from this file's location, so any working directory works.
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { build as viteBuild } from "vite";
import { buildDocsAssets } from "./docs-assets.mjs";

const root = join(import.meta.dirname, "..");
const source = join(root, "src", "client");
const output = join(root, "dist", "client");
/** Where the chat page's and the widget's hashed bundles go; `/assets/…` on the site. */
const HASHED = "assets";
/** What the Worker reads to name the hashed bundles in the chat page (src/conversations/assets.ts). */
const MANIFEST = "chat-assets.json";
/**
 * Budgets (gzip bytes): issue 15's for the script and styles the chat page loads at first and for
 * the whole widget; the rating's, loaded only after a conversation ends (docs/chat.md#rating).
 */
const BUDGET = { chat: 15_000, rating: 2_000, widget: 5_000 };

const common = {
  absWorkingDir: root,
  bundle: true,
  minify: true,
  legalComments: "none",
  logLevel: "warning",
  metafile: true,
};

/** The site path of the output built from `entry` (an input path relative to the root). */
function outputOf(result, entry) {
  for (const [file, meta] of Object.entries(result.metafile.outputs)) {
    if (meta.entryPoint === entry) return `/${relative(output, join(root, file))}`;
  }
  throw new Error(`no output for ${entry}`);
}

const gzipSize = async (path) => gzipSync(await readFile(join(output, path))).byteLength;

// A test server started beside others (scripts/local-server.mjs, `prebuilt`) serves what was built
// once before; rebuilding here would delete files another server is serving.
if (process.env.AGENT_EDGE_PREBUILT === "1") {
  console.log("[build-client] skipped: dist/client was built beforehand");
  process.exit(0);
}

try {
  // Old hashed names and the pre-hash file names must not linger in a deployment.
  await rm(join(output, HASHED), { recursive: true, force: true });
  for (const stale of ["chat.js", "chat.css"]) await rm(join(output, stale), { force: true });
  await mkdir(output, { recursive: true });
  const scripts = await build({
    ...common,
    entryPoints: {
      chat: join(source, "chat.ts"),
      rating: join(source, "rating.ts"),
      widget: join(source, "widget.ts"),
    },
    outdir: output,
    entryNames: `${HASHED}/[name]-[hash]`,
    format: "iife",
    target: "es2020",
  });
  // chat.css imports theme.css and messages.css; bundled so the page loads one stylesheet. The
  // rating's styles are their own file, loaded with its script after the end.
  const styles = await build({
    ...common,
    entryPoints: { chat: join(source, "chat.css"), rating: join(source, "rating.css") },
    outdir: output,
    entryNames: `${HASHED}/[name]-[hash]`,
  });
  // The dashboard's widget preview page (src/agents/preview/page.ts) names it as is.
  await build({
    ...common,
    entryPoints: { "widget-preview": join(source, "widget-preview.css") },
    outdir: output,
  });
  const assets = {
    script: outputOf(scripts, "src/client/chat.ts"),
    style: outputOf(styles, "src/client/chat.css"),
    widget: outputOf(scripts, "src/client/widget.ts"),
    ratingScript: outputOf(scripts, "src/client/rating.ts"),
    ratingStyle: outputOf(styles, "src/client/rating.css"),
  };
  await build({
    ...common,
    entryPoints: {
      widget: join(source, "widget-loader.ts"),
      "sign-in": join(source, "sign-in.ts"),
    },
    outdir: output,
    format: "iife",
    target: "es2020",
    define: { WIDGET_BUNDLE: JSON.stringify(assets.widget) },
  });
  await writeFile(join(output, MANIFEST), `${JSON.stringify(assets, null, 2)}\n`);

  const docs = await buildDocsAssets(root, output);
  // The dashboard (docs/dashboard.md): React built by Vite into dist/client/app.
  await viteBuild({
    configFile: join(root, "scripts", "dashboard.vite.config.mjs"),
    logLevel: "warn",
  });
  // Hashed names never change content: a year, immutable. The loader revalidates every time;
  // everything else gets the assets' default (revalidate). No static file may be read as another
  // type than it is served as: a customer's page runs /widget.js (docs/security.md#chat-embedding).
  await writeFile(
    join(output, "_headers"),
    [
      "/*",
      "  X-Content-Type-Options: nosniff",
      "/app/assets/*",
      "  Cache-Control: public, max-age=31536000, immutable",
      `/${HASHED}/*`,
      "  Cache-Control: public, max-age=31536000, immutable",
      "/widget.js",
      "  Cache-Control: public, max-age=0, must-revalidate",
      "",
    ].join("\n"),
  );

  const chat = (await gzipSize(assets.script)) + (await gzipSize(assets.style));
  const rating = (await gzipSize(assets.ratingScript)) + (await gzipSize(assets.ratingStyle));
  const widget = (await gzipSize("widget.js")) + (await gzipSize(assets.widget));
  console.log(
    `[build-client] wrote ${assets.script.slice(1)} and ${assets.style.slice(1)} (${chat} B gzip, budget ${BUDGET.chat}), ` +
      `${assets.ratingScript.slice(1)} and ${assets.ratingStyle.slice(1)} after the end (${rating} B gzip, budget ${BUDGET.rating}), ` +
      `widget.js and ${assets.widget.slice(1)} (${widget} B gzip, budget ${BUDGET.widget}), ` +
      `${docs.script.slice(1)} and the dashboard (app/) to ${relative(root, output)}`,
  );
  if (chat > BUDGET.chat || rating > BUDGET.rating || widget > BUDGET.widget) {
    throw new Error("the chat page, its rating or the widget is over its gzip budget (issue 15)");
  }
} catch (error) {
  // esbuild has already printed its own diagnostics; this line only marks the failure.
  console.error(
    `[build-client] failed: ${error instanceof Error ? error.message.split("\n")[0].replace(/:$/, "") : error}`,
  );
  process.exit(1);
}
