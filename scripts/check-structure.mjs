// `npm run check:structure` (CI): fails on an import cycle among src/ files, type-only imports
// counted (dependency-cruiser with tsPreCompilationDeps); on an import of a Durable Object's
// implementation (`object.ts`) from anywhere but the entry, which exports it (callers use the
// object's contract.ts and client.ts); on a source file over 300 lines; and on a `console.` call
// outside src/platform/log.ts (log lines are redacted there) and the browser code in src/client.
// Usage: node scripts/check-structure.mjs [dir=src]
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { cruise } from "dependency-cruiser";

const MAX_LINES = 300;
const root = join(import.meta.dirname, "..");
const dir = process.argv[2] ?? "src";

const files = [];
const walk = (folder) => {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (/\.(ts|tsx|mts|css)$/.test(name) && !name.endsWith(".d.ts")) files.push(path);
  }
};
walk(join(root, dir));
const long = files
  .map((path) => ({
    path: relative(root, path),
    lines: readFileSync(path, "utf8").split("\n").length,
  }))
  .sort((a, b) => b.lines - a.lines);

const result = await cruise([dir], {
  baseDir: root,
  tsPreCompilationDeps: true,
  tsConfig: { fileName: join(root, "tsconfig.json") },
  doNotFollow: { path: "node_modules" },
  validate: true,
  ruleSet: {
    forbidden: [
      { name: "no-circular", severity: "error", from: { path: `^${dir}` }, to: { circular: true } },
      {
        name: "object-only-from-entry",
        severity: "error",
        from: { path: `^${dir}`, pathNot: `^${dir}/index\\.ts$` },
        to: { path: "/object\\.ts$" },
      },
    ],
  },
});
const cycles = result.output.summary.violations.filter((v) => v.rule.name === "no-circular");
const tooLong = long.filter((file) => file.lines > MAX_LINES);
const objectImports = result.output.summary.violations.filter(
  (v) => v.rule.name === "object-only-from-entry",
);
const consoleCalls = files
  .filter((path) => /\.tsx?$/.test(path))
  .map((path) => relative(root, path))
  .filter(
    (path) => path !== join(dir, "platform", "log.ts") && !path.startsWith(join(dir, "client")),
  )
  .flatMap((path) =>
    readFileSync(join(root, path), "utf8")
      .split("\n")
      .flatMap((line, index) => (/\bconsole\./.test(line) ? [`${path}:${index + 1}`] : [])),
  );

for (const cycle of cycles) {
  const path = (cycle.cycle ?? []).map((step) => step.name ?? step).join(" -> ");
  console.error(`import cycle: ${cycle.from} -> ${path}`);
}
for (const file of tooLong) console.error(`over ${MAX_LINES} lines: ${file.path} (${file.lines})`);
for (const v of objectImports)
  console.error(`object implementation imported: ${v.from} -> ${v.to}`);
for (const at of consoleCalls) console.error(`console call outside platform/log.ts: ${at}`);
const longest = long[0];
console.log(
  `check:structure: ${files.length} files, ${cycles.length} cycle edges, ${objectImports.length} object imports, ${consoleCalls.length} console calls, ${tooLong.length} over ${MAX_LINES} lines; longest ${longest?.path} (${longest?.lines})`,
);
const failed = cycles.length + objectImports.length + consoleCalls.length + tooLong.length;
process.exit(failed > 0 ? 1 : 0);
