// `npm run check:structure` (CI): fails on an import cycle among src/ files, type-only imports
// counted (dependency-cruiser with tsPreCompilationDeps); on an import of a Durable Object's
// implementation (`object.ts`) from anywhere but the entry, which exports it (callers use the
// object's contract.ts and client.ts); on an import from one capability folder into another's
// internals (docs/architecture.md#the-house: only a folder's `index.ts`, an object's `client.ts`
// and `contract.ts` are its public face; platform/ and db/ are shared by all, and the entry
// src/index.ts and src/routes.ts compose the app); on a folder cycle (runtime imports, as
// ../shared/tools/structure.mjs --folders --runtime-only counts them) that involves workflows/;
// on a source file over 300 lines; and on a `console.` call outside src/platform/log.ts (log
// lines are redacted there) and the browser code in src/client.
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
      {
        name: "public-face",
        severity: "error",
        from: { path: `^${dir}/([^/]+)/`, pathNot: `^${dir}/(index|routes)\\.ts$` },
        to: {
          path: `^${dir}/[^/]+/`,
          pathNot: [`^${dir}/$1/`, `^${dir}/(platform|db)/`, "/(index|client|contract)\\.ts$"],
        },
      },
    ],
  },
});
const cycles = result.output.summary.violations.filter((v) => v.rule.name === "no-circular");
const tooLong = long.filter((file) => file.lines > MAX_LINES);
const objectImports = result.output.summary.violations.filter(
  (v) => v.rule.name === "object-only-from-entry",
);
const faceImports = result.output.summary.violations.filter((v) => v.rule.name === "public-face");
const folderCycles = workflowFolderCycles(result.output.modules);
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
for (const v of faceImports)
  console.error(`import into another folder's internals: ${v.from} -> ${v.to}`);
for (const cycle of folderCycles) console.error(`folder cycle with workflows/: ${cycle}`);
for (const at of consoleCalls) console.error(`console call outside platform/log.ts: ${at}`);
const longest = long[0];
console.log(
  `check:structure: ${files.length} files, ${cycles.length} cycle edges, ${objectImports.length} object imports, ${faceImports.length} imports past a public face, ${folderCycles.length} folder cycles with workflows/, ${consoleCalls.length} console calls, ${tooLong.length} over ${MAX_LINES} lines; longest ${longest?.path} (${longest?.lines})`,
);
const failed =
  cycles.length +
  objectImports.length +
  faceImports.length +
  folderCycles.length +
  consoleCalls.length +
  tooLong.length;
process.exit(failed > 0 ? 1 : 0);

/**
 * Folder cycles through workflows/: for each other folder that workflows/ reaches by runtime
 * imports (type-only ones left out) and that reaches workflows/ back, one line naming it.
 */
function workflowFolderCycles(modules) {
  const folderOf = (path) => new RegExp(`^${dir}/([^/]+)/`).exec(path)?.[1];
  const edges = new Map();
  for (const module of modules) {
    const from = folderOf(module.source);
    if (!from) continue;
    for (const dependency of module.dependencies) {
      const to = folderOf(dependency.resolved);
      const typeOnly = dependency.dependencyTypes.includes("type-only");
      if (!to || to === from || typeOnly) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from).add(to);
    }
  }
  const reach = (start) => {
    const seen = new Set();
    const queue = [start];
    while (queue.length > 0) {
      for (const next of edges.get(queue.shift()) ?? []) {
        if (!seen.has(next)) queue.push(next) && seen.add(next);
      }
    }
    return seen;
  };
  const fromWorkflows = reach("workflows");
  return [...fromWorkflows]
    .filter((folder) => folder !== "workflows" && reach(folder).has("workflows"))
    .map((folder) => `workflows -> ${folder} -> workflows`);
}
