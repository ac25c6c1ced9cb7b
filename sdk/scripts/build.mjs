// Builds the package twice from src/, with the repository's TypeScript:
//   dist/esm  ES modules (module nodenext: the package is "type": "module"), with .d.ts
//   dist/cjs  CommonJS (tsconfig.cjs.json), with .d.ts and a package.json saying
//             {"type": "commonjs"}, so Node and TypeScript read that folder as CommonJS
// `exports` sends `import` to the first and `require` to the second, each with its own types.
// Two tsc builds rather than a bundler: no new tool, and each output is plain tsc output of the
// same source. (A project that both imports and requires it gets two copies: an AgentEdgeError
// from one is not `instanceof` the other's; one format per project avoids that.) `npm pack` runs
// this (prepack), so a tarball always has dist/. TypeScript is the repository's (a devDependency).
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const sdk = join(import.meta.dirname, "..");
const tsc = createRequire(join(sdk, "package.json")).resolve("typescript/bin/tsc");

rmSync(join(sdk, "dist"), { recursive: true, force: true });
for (const [project, outDir] of [
  ["tsconfig.json", "dist/esm"],
  ["tsconfig.cjs.json", "dist/cjs"],
]) {
  execFileSync(process.execPath, [tsc, "-p", project, "--outDir", outDir], {
    cwd: sdk,
    stdio: "inherit",
  });
}
mkdirSync(join(sdk, "dist", "cjs"), { recursive: true });
writeFileSync(
  join(sdk, "dist", "cjs", "package.json"),
  `${JSON.stringify({ type: "commonjs" })}\n`,
);
console.log("sdk: built dist/esm (ES modules) and dist/cjs (CommonJS)");
