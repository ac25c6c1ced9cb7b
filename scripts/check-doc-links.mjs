// `npm run check:docs` (CI): every docs/ page and anchor the code, tests, scripts and README cite
// exists (`docs/api/launch.md#rate-limit`), every relative link between docs/ pages resolves, and
// docs/errors.md lists every code of ERROR_CODES (src/platform/errors.ts). Anchors follow GitHub's
// heading slugs: lower case, punctuation dropped, spaces to hyphens.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize } from "node:path";

const root = join(import.meta.dirname, "..");
const files = (dir, pattern) =>
  readdirSync(join(root, dir), { recursive: true })
    .map((name) => join(dir, String(name)))
    .filter((path) => pattern.test(path) && statSync(join(root, path)).isFile());

const slug = (heading) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
const anchorsCache = new Map();
function anchorsOf(doc) {
  if (!anchorsCache.has(doc)) {
    const text = readFileSync(join(root, doc), "utf8").replace(/```[\s\S]*?```/g, "");
    const headings = [...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => slug(match[1]));
    anchorsCache.set(doc, new Set(headings));
  }
  return anchorsCache.get(doc);
}

const problems = [];
function check(from, doc, anchor) {
  if (!existsSync(join(root, doc))) problems.push(`${from}: ${doc} does not exist`);
  else if (anchor && !anchorsOf(doc).has(anchor))
    problems.push(`${from}: ${doc}#${anchor} has no such heading`);
}

// Citations in code, tests, scripts and the README.
const citing = [
  ...files("src", /\.(ts|mjs|css)$/),
  ...files("test", /\.(ts|mjs)$/),
  ...files("scripts", /\.(mjs|mts)$/),
  "README.md",
];
let citations = 0;
for (const path of citing) {
  const text = readFileSync(join(root, path), "utf8");
  for (const match of text.matchAll(/\bdocs\/([a-z0-9/_-]+\.md)(?:#([a-z0-9-]+))?/g)) {
    citations++;
    check(path, `docs/${match[1]}`, match[2]);
  }
}

// Relative links between docs/ pages.
const docs = files("docs", /\.md$/);
for (const doc of docs) {
  const text = readFileSync(join(root, doc), "utf8");
  for (const match of text.matchAll(/\]\(([^)#\s]*\.md)?(?:#([a-z0-9-]+))?\)/g)) {
    if (!match[1] && !match[2]) continue;
    const target = match[1] ? normalize(join(dirname(doc), match[1])) : doc;
    if (target.startsWith("docs")) check(doc, target, match[2]);
  }
}

// Every error code is documented.
const errors = readFileSync(join(root, "src/platform/errors.ts"), "utf8");
const table = errors.slice(
  errors.indexOf("ERROR_CODES = {"),
  errors.indexOf("} as const satisfies"),
);
const codes = [...table.matchAll(/^ {2}([a-z_]+): \{/gm)].map((match) => match[1]);
const errorsDoc = readFileSync(join(root, "docs/errors.md"), "utf8");
for (const code of codes) {
  if (!errorsDoc.includes(`| \`${code}\` |`)) problems.push(`docs/errors.md: no row for ${code}`);
}

// Every id shown in the docs has a real prefix: `agt_…`, `ch_replace_me` (not `flw_…`).
// The prefixes newId makes (src/platform/ids.ts), the ids made otherwise and the secrets handed
// out once (docs/architecture.md#ids-and-formats).
const ids = readFileSync(join(root, "src/platform/ids.ts"), "utf8");
const idUnion = ids.slice(
  ids.indexOf("export type IdPrefix"),
  ids.indexOf(";", ids.indexOf("IdPrefix")),
);
const prefixes = new Set([
  ...[...idUnion.matchAll(/"([a-z]+)"/g)].map((match) => match[1]),
  ...["dlv", "req", "msg", "qst", "whr", "smp", "mt", "wk_live", "whsec", "si", "ds"],
]);
let shownIds = 0;
for (const path of [...docs, ...files("docs", /\.html$/), "README.md"]) {
  const text = readFileSync(join(root, path), "utf8");
  for (const match of text.matchAll(/\b([a-z]+(?:_live)?)_(?:…|\.\.\.|replace_me\b)/g)) {
    shownIds++;
    if (!prefixes.has(match[1])) problems.push(`${path}: no id starts with ${match[1]}_`);
  }
}

for (const problem of problems) console.error(problem);
console.log(
  `check:docs: ${citations} citations in ${citing.length} files, ${docs.length} pages, ${codes.length} error codes, ${shownIds} ids shown; ${problems.length} problems`,
);
process.exit(problems.length > 0 || codes.length === 0 ? 1 : 0);
