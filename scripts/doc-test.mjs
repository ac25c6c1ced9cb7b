// `npm run test:docs` (part of `npm test`): the docs' shell examples, run. Every ```sh block with
// a curl in README.md and docs/**/*.md (scripts/doc-test-parse.mjs reads them) runs against a
// fresh local server (127.0.0.1, a free port, temporary state) seeded as `npm run dev` seeds its
// demo, from a folder holding the `.dev-demo.env` dev would write (so `source .dev-demo.env` works
// as written; every block starts with it sourced). Each command's answer is checked against the
// `# →` comment beside it: the status and the body's shape. Afterwards, the demo's webhook must
// still answer the banner's call (the docs never break the demo). Prints how many blocks and
// commands ran and were skipped and how long it took; exit 1 on any failure.
// Usage: node scripts/doc-test.mjs [file.md …] (default: README.md and docs/)
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  createDemoLink,
  probeDemoWebhook,
  seedDemoWorkflow,
  seedDemoWorkspace,
} from "./demo-seed.mjs";
import { seedPaymentWorkflow } from "./demo-payment.mjs";
import { demoEnv } from "./demo-text.mjs";
import { extractBlocks, matchShape, pick } from "./doc-test-parse.mjs";
import { lastAnswer, startShell, writeCurlWrapper } from "./doc-test-shell.mjs";
import { fetchApi, ROOT, startFreshServer } from "./local-server.mjs";
import { startStandInMailer } from "./stand-in-mailer.mjs";

/** `npm run dev`'s own address: a doc command naming it would call the developer's server. */
const DEV_URL = /\b(127\.0\.0\.1|localhost):8787\b/;
const started = Date.now();
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** README.md, then docs/**\/*.md in name order; or the files given. */
function docFiles(args) {
  if (args.length > 0) return args.map((file) => path.relative(ROOT, path.resolve(file)));
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith(".md")) found.push(file);
    }
  };
  walk("docs");
  return ["README.md", ...found.sort()];
}

/**
 * Checks one step's outcome against its expectation; returns the problems found.
 * @param {import("./doc-test-parse.mjs").Step} step
 * @param {{ exit: number | null, stdout: string, stderr: string }} ran
 * @param {{ status: number, headers: Record<string, string> } | null} answer
 * @returns {{ problems: string[], body: unknown }}
 */
function check(step, ran, answer) {
  const problems = [];
  if (DEV_URL.test(step.code)) problems.push("a literal dev server URL: write $BASE_URL");
  if (ran.exit === null) problems.push("did not finish within 90 s");
  else if (ran.exit !== 0) problems.push(`exited ${ran.exit}`);
  const expect = step.expect;
  if (/\bcurl\b/.test(step.code) && !expect && !step.skip)
    problems.push("a curl with no `# →` comment saying what it answers");
  let body;
  const text = ran.stdout.trim();
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!expect) return { problems, body };
  if (expect.status !== null && answer?.status !== expect.status)
    problems.push(`status: expected ${expect.status}, got ${answer?.status ?? "no answer"}`);
  if (expect.shape) {
    if (body === undefined)
      problems.push(`body: expected JSON, got ${JSON.stringify(text.slice(0, 200))}`);
    else problems.push(...matchShape(expect.shape, body));
  }
  for (const header of expect.headers) {
    const value = answer?.headers[header.name];
    if (value === undefined) problems.push(`header ${header.name}: missing`);
    else problems.push(...matchShape(header.value, value, `header ${header.name}`));
  }
  return { problems, body };
}

/** Runs one block's steps in one shell; returns counts and failures. */
async function runBlock(block, dir, env) {
  const headers = path.join(dir, "headers");
  const shell = startShell(dir, { ...env, DOC_TEST_HEADERS: headers });
  const result = { ran: 0, skipped: 0, failures: [] };
  try {
    await shell.run("set -o pipefail; source ./.dev-demo.env");
    for (const step of block.steps) {
      const where = `${block.file}:${step.line}`;
      if (DEV_URL.test(step.code) && !step.skip) {
        result.ran++;
        result.failures.push(where);
        console.log(
          `  FAIL  ${where}\n        a literal dev server URL (not run): write $BASE_URL`,
        );
        continue;
      }
      if (step.skip) {
        result.skipped++;
        console.log(`  skip  ${where} (${step.skip})`);
        continue;
      }
      fs.rmSync(headers, { recursive: true, force: true });
      fs.mkdirSync(headers);
      const t0 = Date.now();
      const ran = await shell.run(step.code);
      const answer = lastAnswer(headers);
      const { problems, body } = check(step, ran, answer);
      for (const capture of step.captures) {
        const value = pick(body, capture.path);
        if (typeof value === "string" || typeof value === "number") shell.set(capture.name, value);
        else problems.push(`⇒ ${capture.name}: the answer has no ${capture.path}`);
      }
      result.ran++;
      const label = `${answer ? answer.status : "—"} ${seconds(Date.now() - t0)}`;
      if (problems.length === 0) {
        console.log(`  ok    ${where} (${label})`);
        continue;
      }
      console.log(`  FAIL  ${where} (${label})`);
      const detail = [
        ...problems.map((p) => `        ${p}`),
        `        expected: ${step.expect?.text ?? "(no # → comment)"}`,
        `        output:   ${ran.stdout.trim().slice(0, 600) || "(none)"}`,
        ...(ran.stderr.trim() ? [`        stderr:   ${ran.stderr.trim().slice(0, 600)}`] : []),
      ];
      console.log(detail.join("\n"));
      result.failures.push(where);
    }
  } finally {
    await shell.close();
  }
  return result;
}

const files = docFiles(process.argv.slice(2));
const blocks = files.flatMap((file) =>
  extractBlocks(fs.readFileSync(path.join(ROOT, file), "utf8"), file),
);
const commands = blocks.reduce((n, block) => n + block.steps.length, 0);
console.log(
  `[test:docs] ${blocks.length} shell blocks with curl (${commands} commands) in ${files.length} files.`,
);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent-edge-doc-test-"));
let server;
let mailer;
let operatorToken;
let code = 1;
try {
  ({ server, operatorToken } = await startFreshServer({
    // As `npm run dev` sets it: the README registers an event endpoint on 127.0.0.1.
    ALLOW_PRIVATE_OUTBOUND: "true",
  }));
  const serverMs = Date.now() - started;
  const api = fetchApi(server.base);
  const workspace = await seedDemoWorkspace(api, operatorToken);
  const secret = randomBytes(24).toString("base64url");
  const orders = await seedDemoWorkflow(api, workspace.memberToken, secret);
  // The README's "Payment failed" story mails its link to the stand-in mailer, as in `npm run dev`.
  mailer = await startStandInMailer();
  const payment = await seedPaymentWorkflow(api, workspace.memberToken, {
    mailerUrl: mailer.url,
    stripeSecret: `whsec_${randomBytes(24).toString("base64")}`,
  });
  const demo = { ...workspace, ...orders, ...payment, mailerUrl: mailer.url };
  const link = await createDemoLink(api, demo);
  const env = demoEnv(server.base, demo, { operatorToken, linkId: link?.id });
  fs.writeFileSync(path.join(dir, ".dev-demo.env"), env, { mode: 0o600 });
  const bin = path.join(dir, "bin");
  writeCurlWrapper(bin);
  const shellEnv = {
    PATH: [bin, path.dirname(process.execPath), process.env.PATH ?? ""].join(path.delimiter),
    HOME: dir, // no reader's ~/.curlrc
    LANG: "C.UTF-8",
  };
  console.log(
    `[test:docs] Server ${server.base} up and seeded in ${seconds(Date.now() - started)}.`,
  );
  const totals = { blocks: 0, skippedBlocks: 0, ran: 0, skipped: 0, failures: [] };
  for (const block of blocks) {
    console.log(`${block.file}:${block.line}`);
    if (block.skip) {
      totals.skippedBlocks++;
      totals.skipped += block.steps.length;
      console.log(`  skip  the block (${block.skip})`);
      continue;
    }
    const result = await runBlock(block, dir, shellEnv);
    totals.blocks++;
    totals.ran += result.ran;
    totals.skipped += result.skipped;
    totals.failures.push(...result.failures);
  }
  // Following the docs must leave the demo as the banner describes it (README "Using webhooks"
  // once set the secret the demo checks).
  const probe = await probeDemoWebhook(api, demo);
  if (!probe.ok) totals.failures.push(`the demo webhook afterwards: ${probe.status} ${probe.text}`);
  console.log(
    `  ${probe.ok ? "ok  " : "FAIL"}  the demo's webhook still answers the banner's call`,
  );
  const took = seconds(Date.now() - started);
  console.log(
    `[test:docs] ${totals.blocks} blocks run (${totals.ran} commands), ${totals.skippedBlocks} blocks and ${totals.skipped} commands skipped, ${totals.failures.length} failed, in ${took} (server start ${seconds(serverMs)}).`,
  );
  for (const failure of totals.failures) console.log(`  failed: ${failure}`);
  if (totals.failures.length > 0)
    console.log(`[test:docs] wrangler's output, last lines:\n${server.output()}`);
  code = totals.failures.length === 0 ? 0 : 1;
} catch (error) {
  console.error(`[test:docs] ${error instanceof Error ? error.message : error}`);
  if (server) console.error(`[test:docs] wrangler's output, last lines:\n${server.output()}`);
} finally {
  await Promise.all([server?.stop(), mailer?.stop()]);
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(code);
