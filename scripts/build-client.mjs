// Builds the browser files served by the Worker: src/client/{chat,widget}.ts are bundled into
// self-contained IIFE scripts (no module loading on third-party pages) and chat.css and
// widget-preview.css are bundled, all into dist/client, with the API reference's bundle (./docs-assets.mjs). Paths come from this
// file's location, so any working directory works.
import { mkdir, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { build } from "esbuild";
import { build as viteBuild } from "vite";
import { buildDocsAssets } from "./docs-assets.mjs";

const root = join(import.meta.dirname, "..");
const source = join(root, "src", "client");
const output = join(root, "dist", "client");

try {
  await mkdir(output, { recursive: true });
  await build({
    absWorkingDir: root,
    entryPoints: {
      chat: join(source, "chat.ts"),
      widget: join(source, "widget.ts"),
      "sign-in": join(source, "sign-in.ts"),
    },
    outdir: output,
    bundle: true,
    format: "iife",
    target: "es2020",
    minify: true,
    sourcemap: false,
    legalComments: "none",
    logLevel: "warning",
  });
  // chat.css imports theme.css; bundled so the page loads one stylesheet. widget-preview.css is
  // the dashboard's widget preview page (src/manage/preview-page.ts).
  await build({
    absWorkingDir: root,
    entryPoints: {
      chat: join(source, "chat.css"),
      "widget-preview": join(source, "widget-preview.css"),
    },
    outdir: output,
    bundle: true,
    minify: true,
    logLevel: "warning",
  });
  const docs = await buildDocsAssets(root, output);
  // The dashboard (docs/dashboard.md): React built by Vite into dist/client/app.
  await viteBuild({
    configFile: join(root, "scripts", "dashboard.vite.config.mjs"),
    logLevel: "warn",
  });
  // Hashed names never change content: a year, immutable. Everything else revalidates.
  await writeFile(
    join(output, "_headers"),
    "/app/assets/*\n  Cache-Control: public, max-age=31536000, immutable\n",
  );
  console.log(
    `[build-client] wrote chat.js, widget.js, chat.css, widget-preview.css, ${docs.script.slice(1)} and the dashboard (app/) to ${relative(root, output)}`,
  );
} catch (error) {
  // esbuild has already printed its own diagnostics; this line only marks the failure.
  console.error(
    `[build-client] failed: ${error instanceof Error ? error.message.split("\n")[0].replace(/:$/, "") : error}`,
  );
  process.exit(1);
}
