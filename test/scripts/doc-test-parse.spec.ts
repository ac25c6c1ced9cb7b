/**
 * The doc tests' reading of the docs (scripts/doc-test-parse.mjs, docs/README.md#examples-that-are-run):
 * which blocks run, how they are cut into commands, and the `# →` comment's status and shape
 * (`…` in a string, as a member, an element or a value). A mismatch of any kind must be reported,
 * or `npm run test:docs` would pass docs that are wrong.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  extractBlocks,
  matchShape,
  parseExpectation,
  parseShape,
  pick,
  type Shape,
} from "../../scripts/doc-test-parse.mjs";

const ROOT = path.join(import.meta.dirname, "..", "..");
const shape = (text: string): Shape => parseShape(text, 0).shape;
const fence = "```";

describe("extractBlocks", () => {
  const markdown = [
    "# Page",
    `${fence}sh`,
    "npm install",
    fence,
    `${fence}json`,
    '{"curl": true}',
    fence,
    `${fence}sh`,
    "# Create it.",
    'curl -s -X POST "$BASE_URL/v1/things" \\',
    "  -d '{\"a\": 1}'",
    '# → 201 {"id":"th_…",',
    '#     "a":1,…}',
    "# ⇒ THING_ID=.id",
    "",
    'curl -s "$BASE_URL/v1/things/$THING_ID"',
    "# → 200 {…}",
    'curl -s "$BASE_URL/v1/other"',
    fence,
    `${fence}sh no-run`,
    "curl https://example.com",
    fence,
    `${fence}bash`,
    "# doc-test: skip needs a public receiver",
    "curl https://example.com",
    fence,
  ].join("\n");
  const blocks = extractBlocks(markdown, "page.md");

  it("takes the shell blocks with a curl, and only those", () => {
    expect(blocks.map((b) => [b.line, b.skip])).toEqual([
      [8, null],
      [20, "marked no-run"],
      [23, "needs a public receiver"],
    ]);
  });

  it("cuts a block into commands at their # → comments, continuation and ⇒ lines included", () => {
    const steps = blocks[0]?.steps ?? [];
    expect(steps).toHaveLength(3);
    expect(steps[0]?.line).toBe(9);
    expect(steps[0]?.code).toBe(
      '# Create it.\ncurl -s -X POST "$BASE_URL/v1/things" \\\n  -d \'{"a": 1}\'',
    );
    expect(steps[0]?.expect?.status).toBe(201);
    expect(steps[0]?.expect?.text).toBe('201 {"id":"th_…", "a":1,…}');
    expect(steps[0]?.captures).toEqual([{ name: "THING_ID", path: ".id" }]);
    expect(steps[1]?.expect?.status).toBe(200);
    // A command after the last comment is a step with no expectation (the runner fails a curl).
    expect(steps[2]).toMatchObject({ code: 'curl -s "$BASE_URL/v1/other"', expect: null });
  });

  it("names file and line of an expectation it cannot read", () => {
    const bad = [`${fence}sh`, "curl -s x", '# → 200 {"id": }', fence].join("\n");
    expect(() => extractBlocks(bad, "bad.md")).toThrow(/^bad\.md:3: shape: expected a value/);
    const capture = [`${fence}sh`, "curl -s x", "# → 200", "# ⇒ id", fence].join("\n");
    expect(() => extractBlocks(capture, "cap.md")).toThrow(/cap\.md:4: a "# ⇒" line reads/);
  });
});

describe("parseExpectation", () => {
  it("reads a status alone", () => {
    expect(parseExpectation("204")).toMatchObject({ status: 204, shape: null, headers: [] });
  });

  it("reads status, shape and a header named in the prose after it", () => {
    const read = parseExpectation('200 {"ok":true}   (header x-execution-id: exe_…) as sent');
    expect(read.status).toBe(200);
    expect(read.shape && matchShape(read.shape, { ok: true })).toEqual([]);
    expect(read.headers.map((h) => h.name)).toEqual(["x-execution-id"]);
    const header = read.headers[0]?.value as Shape;
    expect(matchShape(header, "exe_abc")).toEqual([]);
    expect(matchShape(header, "req_abc")).not.toEqual([]);
  });
});

describe("matchShape", () => {
  const create = shape(
    '{"id":"lnk_…","status":"pending","token":"…","url":"…/chat#launch=…","embedHtml":"<script …>",…}',
  );
  const answer = {
    id: "lnk_abc",
    status: "pending",
    token: "t0k",
    url: "http://127.0.0.1:1/chat#launch=t0k",
    embedHtml: '<script src="/widget.js" data-x="1"></script>',
    expiresAt: "2026-01-01T00:00:00Z",
  };

  it("accepts an answer of that shape, more members where … allows them", () => {
    expect(matchShape(create, answer)).toEqual([]);
  });

  it("fails a literal that differs, a prefix that differs, a missing member", () => {
    expect(matchShape(create, { ...answer, status: "active" })).toEqual([
      '$.status: expected "pending", got "active"',
    ]);
    expect(matchShape(create, { ...answer, id: "wf_abc" })).toEqual([
      '$.id: expected "lnk_…", got "wf_abc"',
    ]);
    const { token: _token, ...noToken } = answer;
    expect(matchShape(create, noToken)).toEqual(["$.token: missing"]);
  });

  it("fails a member a closed object does not name (the doc says exactly which there are)", () => {
    expect(matchShape(shape('{"id":"lnk_…"}'), { id: "lnk_1", token: "leak" })).toEqual([
      "$.token: not in the doc (add it or …)",
    ]);
  });

  it('compares types as written: 1042 is not "1042", null is not {}', () => {
    expect(matchShape(shape('{"orderId":1042}'), { orderId: "1042" })).not.toEqual([]);
    expect(matchShape(shape('{"c":null}'), { c: {} })).not.toEqual([]);
    expect(matchShape(shape('{"c":…}'), { c: {} })).toEqual([]);
    expect(matchShape(shape('"…"'), 5)).not.toEqual([]);
  });

  it("reads … in arrays: more elements allowed, or exactly those shown", () => {
    const open = shape('{"data":[{"id":"exe_…",…},…]}');
    expect(matchShape(open, { data: [{ id: "exe_1", x: 1 }, { id: "exe_2" }] })).toEqual([]);
    expect(matchShape(open, { data: [] })).toEqual(["$.data: expected at least 1 elements, got 0"]);
    const closed = shape('{"data":[{"id":"exe_…",…}]}');
    expect(matchShape(closed, { data: [{ id: "exe_1" }, { id: "exe_2" }] })).toEqual([
      "$.data: expected 1 elements, got 2",
    ]);
    expect(matchShape(shape("[…]"), [1, 2, 3])).toEqual([]);
    expect(matchShape(shape("[…]"), { a: 1 })).not.toEqual([]);
  });

  it("matches nested shapes and names the path of a difference", () => {
    const timeout = shape('{"error":{"code":"workflow_timeout","resultToken":"wf_….…",…}}');
    expect(
      matchShape(timeout, { error: { code: "workflow_timeout", resultToken: "wf_a.b" } }),
    ).toEqual([]);
    expect(
      matchShape(timeout, { error: { code: "workflow_timeout", resultToken: "wf_ab" } }),
    ).toEqual(['$.error.resultToken: expected "wf_….…", got "wf_ab"']);
  });

  it("treats regular-expression characters in strings as text", () => {
    expect(matchShape(shape('"a.b(…)"'), "a.b(x)")).toEqual([]);
    expect(matchShape(shape('"a.b(…)"'), "aXb(x)")).not.toEqual([]);
  });
});

describe("pick", () => {
  it("reads a field by its path", () => {
    const body = { error: { resultUrl: "u" }, data: [{ id: "x" }] };
    expect(pick(body, ".error.resultUrl")).toBe("u");
    expect(pick(body, ".data[0].id")).toBe("x");
    expect(pick(body, ".nothing.here")).toBeUndefined();
  });
});

describe("the repository's docs", () => {
  it("every curl command in README.md and docs/ says what it answers", () => {
    const files = ["README.md", ...listDocs("docs")];
    const blocks = files.flatMap((file) =>
      extractBlocks(fs.readFileSync(path.join(ROOT, file), "utf8"), file),
    );
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    const silent = blocks
      .flatMap((b) =>
        b.steps.map((s) => ({ ...s, where: `${b.file}:${s.line}`, skip: b.skip ?? s.skip })),
      )
      .filter((s) => /\bcurl\b/.test(s.code) && !s.expect && !s.skip)
      .map((s) => s.where);
    expect(silent).toEqual([]);
  });
});

function listDocs(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return listDocs(file);
    return entry.name.endsWith(".md") ? [file] : [];
  });
}
