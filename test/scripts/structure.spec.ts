/**
 * `npm run check:structure` (scripts/check-structure.mjs, docs/architecture.md#the-house) on small
 * trees of its own: an import into another folder's internals and a folder cycle through
 * `workflows/` each fail it, naming the files; imports through public faces pass.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = path.join(import.meta.dirname, "..", "..");
const BASE = path.join(".cache", `structure-${process.pid}`);

/** Writes `files` (path → text) under a fresh tree and runs the check over it. */
function check(name: string, files: Record<string, string>) {
  const dir = path.join(BASE, name);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(ROOT, dir, file)), { recursive: true });
    fs.writeFileSync(path.join(ROOT, dir, file), text);
  }
  const run = spawnSync(process.execPath, ["scripts/check-structure.mjs", dir], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return { status: run.status, stderr: run.stderr };
}

afterAll(() => fs.rmSync(path.join(ROOT, BASE), { recursive: true, force: true }));

describe("check:structure", () => {
  it("passes imports through a folder's index.ts and an object's client.ts", () => {
    const run = check("faces", {
      "workflows/index.ts": "export const w = 1;\n",
      "workflows/runner/client.ts": "export const runner = 2;\n",
      "audit/record.ts":
        'import { w } from "../workflows";\nimport { runner } from "../workflows/runner/client";\nexport const r = w + runner;\n',
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("fails an import into another folder's internals", () => {
    const run = check("internals", {
      "workflows/inner.ts": "export const inner = 2;\n",
      "audit/record.ts": 'import { inner } from "../workflows/inner";\nexport const r = inner;\n',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("import into another folder's internals");
    expect(run.stderr).toContain("audit/record.ts");
  });

  it("fails a folder cycle through workflows/, with no file cycle", () => {
    const run = check("cycle", {
      "workflows/index.ts": "export const w = 1;\n",
      "workflows/uses-audit.ts": 'import { a } from "../audit";\nexport const b = a;\n',
      "audit/index.ts": 'import { w } from "../workflows";\nexport const a = w;\n',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("folder cycle with workflows/: workflows -> audit -> workflows");
    expect(run.stderr).not.toContain("import cycle");
  });
});
