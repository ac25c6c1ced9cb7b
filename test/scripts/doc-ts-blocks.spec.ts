/**
 * The ```ts block extractor of `npm run test:sdk-install` (scripts/doc-ts-blocks.mjs): which
 * blocks are type-checked, run or left alone (`no-check`), where each starts, and the CommonJS
 * form a `run` block is also checked and run as; and that the project's docs have the runnable
 * SDK example the install test needs.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { asCommonJs, docFiles, projectTsBlocks, tsBlocks } from "../../scripts/doc-ts-blocks.mjs";

const ROOT = path.join(import.meta.dirname, "..", "..");
const fence = "```";

describe("tsBlocks", () => {
  it("finds ts blocks with their line and marks, and skips the other languages", () => {
    const markdown = [
      "# Title",
      `${fence}sh`,
      "curl -s http://127.0.0.1:8787/health",
      fence,
      `${fence}ts`,
      "const a: number = 1;",
      fence,
      `${fence}ts run`,
      'import { createClient } from "@agent-edge/sdk";',
      "await createClient({ baseUrl: '', apiKey: '' }).launches.get('lnk_1');",
      fence,
      `${fence}typescript no-check`,
      "edge.launches.create(...)",
      fence,
    ].join("\n");
    const blocks = tsBlocks(markdown, "page.md");
    expect(blocks.map(({ line, check, run }) => ({ line, check, run }))).toEqual([
      { line: 5, check: true, run: false },
      { line: 8, check: true, run: true },
      { line: 12, check: false, run: false },
    ]);
    expect(blocks[0]?.code).toBe("const a: number = 1;\n");
    expect(blocks[0]?.file).toBe("page.md");
  });

  it("keeps a longer fence's inner fences and strips a list item's indentation", () => {
    const markdown = ["- step", `  ${fence}ts`, "  const inner = `", `  ${fence}`, "  `;"].join(
      "\n",
    );
    // The ``` inside the template literal closes the block as CommonMark would: a fence of the
    // same length. A block meant to contain one uses a longer fence:
    expect(tsBlocks(markdown, "a.md")[0]?.code).toBe("const inner = `\n");
    const longer = ["````ts", "const md = `", fence, "`;", "````"].join("\n");
    expect(tsBlocks(longer, "b.md")[0]?.code).toBe(`const md = \`\n${fence}\n\`;\n`);
  });

  it("refuses a fence that never closes, and a block both run and no-check", () => {
    expect(() => tsBlocks(`text\n${fence}ts\nconst a = 1;\n`, "c.md")).toThrow(/c\.md:2/);
    expect(() => tsBlocks(`${fence}ts run no-check\nx\n${fence}\n`, "d.md")).toThrow(/d\.md:1/);
  });
});

describe("asCommonJs", () => {
  it("keeps the imports at the top and runs the rest in an async function", () => {
    const cjs = asCommonJs('import { a } from "m";\n\nawait a();\nconsole.log(1);\n');
    expect(cjs).toBe(
      'import { a } from "m";\n\n(async () => {\n  await a();\n  console.log(1);\n})().catch((error) => {\n  console.error(error);\n  process.exitCode = 1;\n});\n',
    );
  });
});

describe("the project's docs", () => {
  it("are README.md, sdk/README.md and every .md under docs/, with sdk/README.md's example to run", () => {
    const files = docFiles(ROOT);
    expect(files).toContain("README.md");
    expect(files).toContain(path.join("sdk", "README.md"));
    expect(files).toContain(path.join("docs", "errors.md"));
    const runnable = projectTsBlocks(ROOT).filter((block) => block.run);
    expect(runnable.map((block) => block.file)).toContain(path.join("sdk", "README.md"));
    expect(runnable[0]?.code).toMatch(/process\.env/);
  });
});
