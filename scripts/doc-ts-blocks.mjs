// The ```ts blocks of the project's Markdown (README.md, docs/**/*.md, sdk/README.md), for
// scripts/sdk-install-test.mjs, which type-checks each against the packed SDK and runs the ones
// marked `run` (docs/api/launch.md's SDK example lives in sdk/README.md). The fence's info string
// says what to do with a block:
//   ```ts            type-checked (strict, module nodenext, as a .mts file importing @agent-edge/sdk)
//   ```ts run        type-checked, and run against a local server as ESM and as CommonJS
//   ```ts no-check   a fragment on purpose: neither (it is counted, so the check can say so)
// No Node imports beyond fs/path: the extractor is tested on strings (test/scripts/doc-ts-blocks.spec.ts).
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const FENCE = /^(\s*)(`{3,}|~{3,})\s*(\S*)\s*(.*)$/;
const TS = new Set(["ts", "typescript", "mts", "cts"]);

/**
 * The TypeScript blocks of one Markdown text, in order.
 * @param {string} markdown
 * @param {string} file the path to report (relative to the repository)
 * @returns {{ file: string, line: number, code: string, check: boolean, run: boolean }[]}
 *   `line` is the fence's line (1-based); `code` the block's lines, the fence's indentation removed
 * @throws {Error} when a fence is never closed, or a block is marked both `run` and `no-check`
 */
export function tsBlocks(markdown, file) {
  const lines = markdown.split("\n");
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i] ?? "");
    if (!open) continue;
    const [, indent = "", fence = "", language = "", rest = ""] = open;
    const start = i;
    const body = [];
    for (i++; i < lines.length; i++) {
      const line = lines[i] ?? "";
      const close = FENCE.exec(line);
      if (
        close &&
        close[2]?.[0] === fence[0] &&
        (close[2]?.length ?? 0) >= fence.length &&
        !close[3]
      )
        break;
      body.push(line.startsWith(indent) ? line.slice(indent.length) : line.trimStart());
    }
    if (i >= lines.length) throw new Error(`${file}:${start + 1}: a code fence is never closed`);
    if (!TS.has(language.toLowerCase())) continue;
    const words = rest.split(/\s+/).filter(Boolean);
    const check = !words.includes("no-check");
    const run = words.includes("run");
    if (run && !check)
      throw new Error(`${file}:${start + 1}: a block cannot be both run and no-check`);
    blocks.push({ file, line: start + 1, code: `${body.join("\n")}\n`, check, run });
  }
  return blocks;
}

/**
 * The Markdown files whose blocks are checked: README.md, every .md under docs/, sdk/README.md.
 * @param {string} root the repository
 * @returns {string[]} paths relative to `root`, sorted
 */
export function docFiles(root) {
  const found = ["README.md", join("sdk", "README.md")];
  const walk = (dir) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".md")) found.push(path);
    }
  };
  walk("docs");
  return found.map((path) => relative(root, join(root, path))).sort();
}

/** Every TypeScript block of the project's Markdown files (see {@link docFiles}). */
export function projectTsBlocks(root) {
  return docFiles(root).flatMap((file) => tsBlocks(readFileSync(join(root, file), "utf8"), file));
}

/**
 * A block as a CommonJS module: its leading `import` lines stay (TypeScript turns them into
 * `require` in a .cts file), the rest runs inside an async function, since CommonJS has no
 * top-level await; a failure is printed and sets a non-zero exit code.
 * @param {string} code an ES module's source
 */
export function asCommonJs(code) {
  const lines = code.trimEnd().split("\n");
  let split = 0;
  while (split < lines.length && /^(import\s.*;|\s*)$/.test(lines[split] ?? "")) split++;
  const imports = lines.slice(0, split).join("\n").trimEnd();
  const body = lines.slice(split).map((line) => (line ? `  ${line}` : line));
  return `${imports}\n\n(async () => {\n${body.join("\n")}\n})().catch((error) => {\n  console.error(error);\n  process.exitCode = 1;\n});\n`;
}
