// `npm run check:structure` (CI): fails on an import cycle among src/ files, type-only imports
// counted (dependency-cruiser with tsPreCompilationDeps), and on a source file over 300 lines.
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
    ],
  },
});
const cycles = result.output.summary.violations.filter((v) => v.rule.name === "no-circular");
const tooLong = long.filter((file) => file.lines > MAX_LINES);

for (const cycle of cycles) {
  const path = (cycle.cycle ?? []).map((step) => step.name ?? step).join(" -> ");
  console.error(`import cycle: ${cycle.from} -> ${path}`);
}
for (const file of tooLong) console.error(`over ${MAX_LINES} lines: ${file.path} (${file.lines})`);
const longest = long[0];
console.log(
  `check:structure: ${files.length} files, ${cycles.length} cycle edges, ${tooLong.length} over ${MAX_LINES} lines; longest ${longest?.path} (${longest?.lines})`,
);
process.exit(cycles.length > 0 || tooLong.length > 0 ? 1 : 0);
