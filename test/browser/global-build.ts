/**
 * The browser tests' global setup (vitest.browser.config.ts): builds dist/client once
 * (scripts/build-client.mjs), before any spec file starts its server. The servers are started
 * `prebuilt` (scripts/local-server.mjs), so two running side by side never rebuild, and delete,
 * the files the other is serving.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { ROOT } from "./wrangler-server";

export default function build(): void {
  const result = spawnSync(process.execPath, [path.join(ROOT, "scripts", "build-client.mjs")], {
    stdio: "inherit",
  });
  if (result.status !== 0) throw new Error("scripts/build-client.mjs failed");
}
