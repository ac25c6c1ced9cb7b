// The doc tests' reading of the docs (scripts/doc-test.mjs runs what this finds; the convention is
// described in docs/README.md#commands-that-are-run): every ```sh block with a `curl` in README.md
// and docs/, cut into commands at the comments that say what each answers.
//
//   curl -s "$BASE_URL/v1/widget/launches/$LINK_ID" -H "x-api-key: $WIDGET_KEY"
//   # → 200 {"id":"lnk_…","status":"pending",…}   (header x-request-id: req_…)
//   # ⇒ LINK_ID=.id
//
// `# →` is followed by the status and the body's shape: JSON in which `…` inside a string stands
// for any text, `…` as an object's member for more members, as an array's element for more
// elements, and as a value for any value; everything else is compared as written. Lines
// `#   …` (two spaces or more) right under it continue it. Prose may follow the shape; a
// `(header NAME: VALUE)` in it is checked too. `# ⇒ NAME=.path` sets NAME, for the commands after
// it, to that field of the answer. `# doc-test: skip <reason>` leaves a command out (the first line
// of a block: the whole block), as does a block opened with ```sh no-run.

const SHELL_LANGS = new Set(["sh", "bash", "shell"]);

/**
 * @typedef {{ kind: "any" } | { kind: "literal", value: unknown }
 *   | { kind: "string", pattern: RegExp, text: string }
 *   | { kind: "object", members: [string, Shape][], open: boolean }
 *   | { kind: "array", items: Shape[], open: boolean }} Shape
 * @typedef {{ status: number | null, shape: Shape | null, headers: { name: string, value: Shape }[],
 *   text: string }} Expectation
 * @typedef {{ line: number, code: string, expect: Expectation | null,
 *   captures: { name: string, path: string }[], skip: string | null }} Step
 * @typedef {{ file: string, line: number, text: string, skip: string | null, steps: Step[] }} Block
 */

/**
 * The fenced shell blocks of `markdown` that call curl, each cut into its steps.
 * @param {string} markdown
 * @param {string} file named in errors and reports
 * @returns {Block[]}
 * @throws {Error} naming file and line, for an expectation that cannot be read
 */
export function extractBlocks(markdown, file) {
  const lines = markdown.split(/\r?\n/);
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = lines[i].match(/^(\s*)(`{3,}|~{3,})\s*([\w-]*)\s*(.*)$/);
    if (!open) continue;
    const [, indent, fence, lang, rest] = open;
    const body = [];
    let j = i + 1;
    while (j < lines.length && !lines[j].trimStart().startsWith(fence)) {
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j]);
      j++;
    }
    const start = i + 1;
    i = j;
    const text = body.join("\n");
    if (!SHELL_LANGS.has(lang) || !/\bcurl\b/.test(text)) continue;
    const first = body.find((line) => line.trim() !== "") ?? "";
    const skip = /\bno-run\b/.test(rest)
      ? "marked no-run"
      : (first.match(/^\s*# doc-test: skip\b\s*(.*)$/)?.[1] ?? null);
    blocks.push({ file, line: start, text, skip, steps: splitSteps(body, file, start + 1) });
  }
  return blocks;
}

/**
 * `lines` cut into steps: the code up to each `# →` expectation (with its continuation and
 * `# ⇒` lines) is one step; code after the last is a step with no expectation.
 * @param {string[]} lines
 * @param {string} file
 * @param {number} firstLine the file's line number of `lines[0]`
 * @returns {Step[]}
 */
export function splitSteps(lines, file, firstLine) {
  const steps = [];
  let code = [];
  let start = firstLine;
  let skip = null;
  const close = (expect, captures) => {
    steps.push({ line: start, code: code.join("\n"), expect, captures, skip });
    code = [];
    skip = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (code.length === 0) start = firstLine + i;
    const skipped = line.match(/^\s*# doc-test: skip\b\s*(.*)$/);
    if (skipped) skip = skipped[1] || "no reason given";
    const arrow = line.match(/^\s*# →\s?(.*)$/);
    if (!arrow) {
      code.push(line);
      continue;
    }
    let text = arrow[1];
    while (i + 1 < lines.length && /^\s*#\s{2,}\S/.test(lines[i + 1])) {
      text += ` ${lines[++i].replace(/^\s*#\s+/, "")}`;
    }
    const captures = [];
    while (i + 1 < lines.length && /^\s*# ⇒/.test(lines[i + 1])) {
      const capture = lines[++i].match(/^\s*# ⇒\s*([A-Za-z_][A-Za-z0-9_]*)=(\.[\w.[\]]+)/);
      if (!capture) throw new Error(`${file}:${firstLine + i}: a "# ⇒" line reads NAME=.path`);
      captures.push({ name: capture[1], path: capture[2] });
    }
    try {
      close(parseExpectation(text), captures);
    } catch (error) {
      throw new Error(
        `${file}:${firstLine + i}: ${error instanceof Error ? error.message : error}`,
      );
    }
  }
  if (code.some((line) => line.trim() !== "" && !line.trim().startsWith("#"))) close(null, []);
  return steps;
}

/**
 * An expectation's text (after `# →`): `[status] [shape] [prose with (header NAME: VALUE)]`.
 * @param {string} text
 * @returns {Expectation}
 * @throws {Error} when the shape is not readable
 */
export function parseExpectation(text) {
  let rest = text.trim();
  const status = rest.match(/^(\d{3})\b/);
  if (status) rest = rest.slice(3).trimStart();
  let shape = null;
  if (/^[[{"]/.test(rest)) {
    const parsed = parseShape(rest, 0);
    shape = parsed.shape;
    rest = rest.slice(parsed.end);
  }
  const headers = [];
  for (const [, name, value] of rest.matchAll(/\(header ([A-Za-z0-9-]+): ([^)]*)\)/g)) {
    headers.push({ name: name.toLowerCase(), value: stringShape(value.trim()) });
  }
  return { status: status ? Number(status[1]) : null, shape, headers, text: text.trim() };
}

/** A string shape: `…` matches any text, the rest as written. */
function stringShape(text) {
  const parts = text.split("…").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return parts.length === 1
    ? { kind: "literal", value: text }
    : { kind: "string", pattern: new RegExp(`^${parts.join("[\\s\\S]*")}$`), text };
}

/**
 * Reads one shape at `at` of `text`.
 * @param {string} text
 * @param {number} at
 * @returns {{ shape: Shape, end: number }} `end`: the index after it
 * @throws {Error} naming the position of what cannot be read
 */
export function parseShape(text, at) {
  const skipSpace = (i) => {
    while (i < text.length && /\s/.test(text[i])) i++;
    return i;
  };
  const fail = (i, what) => {
    throw new Error(`shape: expected ${what} at ${i + 1} of ${JSON.stringify(text)}`);
  };
  const value = (start) => {
    const i = skipSpace(start);
    const c = text[i];
    if (c === "…") return { shape: { kind: "any" }, end: i + 1 };
    if (c === '"') {
      const end = stringEnd(text, i);
      if (end < 0) fail(i, "a closing quote");
      return { shape: stringShape(JSON.parse(text.slice(i, end))), end };
    }
    if (c === "{" || c === "[") return container(i, c === "{");
    const literal = text.slice(i).match(/^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null)/);
    if (!literal) fail(i, "a value");
    return {
      shape: { kind: "literal", value: JSON.parse(literal[0]) },
      end: i + literal[0].length,
    };
  };
  const container = (start, isObject) => {
    const closing = isObject ? "}" : "]";
    const members = [];
    let open = false;
    let i = skipSpace(start + 1);
    if (text[i] === closing) return { shape: made(isObject, members, open), end: i + 1 };
    for (let guard = 0; guard < text.length; guard++) {
      i = skipSpace(i);
      if (text[i] === "…" && /^\s*[,}\]]/.test(text.slice(i + 1))) {
        open = true;
        i++;
      } else if (isObject) {
        if (text[i] !== '"') fail(i, "a member name or …");
        const end = stringEnd(text, i);
        if (end < 0) fail(i, "a closing quote");
        const name = JSON.parse(text.slice(i, end));
        i = skipSpace(end);
        if (text[i] !== ":") fail(i, '":"');
        const member = value(i + 1);
        members.push([name, member.shape]);
        i = member.end;
      } else {
        const item = value(i);
        members.push(item.shape);
        i = item.end;
      }
      i = skipSpace(i);
      if (text[i] === ",") {
        i++;
        continue;
      }
      if (text[i] === closing) return { shape: made(isObject, members, open), end: i + 1 };
      fail(i, `"," or "${closing}"`);
    }
    return fail(i, closing);
  };
  return value(at);
}

function made(isObject, members, open) {
  return isObject ? { kind: "object", members, open } : { kind: "array", items: members, open };
}

/** The index after the JSON string starting at `at`, or -1. */
function stringEnd(text, at) {
  for (let i = at + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i + 1;
  }
  return -1;
}

/**
 * Where `value` differs from `shape`, as `path: what` lines; empty when it matches.
 * @param {Shape} shape
 * @param {unknown} value
 * @param {string} [path]
 * @returns {string[]}
 */
export function matchShape(shape, value, path = "$") {
  const show = (v) => (JSON.stringify(v) ?? String(v)).slice(0, 120);
  switch (shape.kind) {
    case "any":
      return [];
    case "literal":
      return Object.is(shape.value, value)
        ? []
        : [`${path}: expected ${show(shape.value)}, got ${show(value)}`];
    case "string":
      return typeof value === "string" && shape.pattern.test(value)
        ? []
        : [`${path}: expected ${show(shape.text)}, got ${show(value)}`];
    case "array": {
      if (!Array.isArray(value)) return [`${path}: expected an array, got ${show(value)}`];
      const count = shape.items.length;
      if (shape.open ? value.length < count : value.length !== count)
        return [
          `${path}: expected ${shape.open ? "at least " : ""}${count} elements, got ${value.length}`,
        ];
      return shape.items.flatMap((item, n) => matchShape(item, value[n], `${path}[${n}]`));
    }
    case "object": {
      if (value === null || typeof value !== "object" || Array.isArray(value))
        return [`${path}: expected an object, got ${show(value)}`];
      const problems = [];
      for (const [name, member] of shape.members) {
        if (!Object.hasOwn(value, name)) problems.push(`${path}.${name}: missing`);
        else problems.push(...matchShape(member, value[name], `${path}.${name}`));
      }
      if (!shape.open) {
        const named = new Set(shape.members.map(([name]) => name));
        for (const name of Object.keys(value))
          if (!named.has(name)) problems.push(`${path}.${name}: not in the doc (add it or …)`);
      }
      return problems;
    }
  }
}

/**
 * The field `path` (`.a.b[0]`) of `value`, or undefined.
 * @param {unknown} value
 * @param {string} path
 */
export function pick(value, path) {
  let current = value;
  for (const [, name, index] of path.matchAll(/\.([A-Za-z_$][\w$-]*)|\[(\d+)\]/g)) {
    if (current === null || typeof current !== "object") return undefined;
    current = current[name ?? Number(index)];
  }
  return current;
}
