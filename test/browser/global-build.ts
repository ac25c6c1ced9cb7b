/**
 * The browser tests' global setup (vitest.browser.config.ts): builds dist/client once
 * (scripts/build-client.mjs) and applies the D1 migrations once to a state folder that every spec
 * file's server starts from a copy of (`migratedState`, about 12 s saved per file). The servers
 * are started `prebuilt` (scripts/local-server.mjs), so two running side by side never rebuild,
 * and delete, the files the other is serving.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { migrateState, ROOT } from "../../scripts/local-server.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated D1 state each server copies (`startLocalServer`'s `migratedState`). */
    migratedState: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const result = spawnSync(process.execPath, [path.join(ROOT, "scripts", "build-client.mjs")], {
    stdio: "inherit",
  });
  if (result.status !== 0) throw new Error("scripts/build-client.mjs failed");
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "agent-edge-migrated-"));
  const remove = () => fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
  try {
    await migrateState(path.join(tmp, "state"), { prebuilt: true });
  } catch (error) {
    remove();
    throw error;
  }
  project.provide("migratedState", path.join(tmp, "state"));
  return remove;
}
