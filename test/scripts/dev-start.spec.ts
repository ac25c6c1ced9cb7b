/**
 * `npm run dev`'s quiet start (scripts/dev-output.mjs, README "Quick start"): wrangler's migration
 * tables become one line, its start-up lines and the seed's own requests are left out, errors and
 * unknown warnings still show; and `.dev-demo.env` (scripts/demo-text.mjs) gives bash exactly the
 * demo's values. The output below is wrangler 4's, as `npm run dev` got it on a fresh database.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { demoEnv } from "../../scripts/demo-text.mjs";
import { startFilter, summariseMigrations } from "../../scripts/dev-output.mjs";

const NAMES = Array.from({ length: 13 }, (_, i) => `${String(i).padStart(4, "0")}_step_${i}`);

/** A table as wrangler draws it: a header, then a row per line with separators between. */
function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? "").length)));
  const line = (cells: string[]) =>
    `│ ${cells.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join(" │ ")} │`;
  const rule = (l: string, m: string, r: string) =>
    `${l}${widths.map((w) => "─".repeat(w + 2)).join(m)}${r}`;
  const out = [rule("┌", "┬", "┐"), line(header), rule("├", "┼", "┤")];
  rows.forEach((row, i) => {
    out.push(line(row));
    out.push(i === rows.length - 1 ? rule("└", "┴", "┘") : rule("├", "┼", "┤"));
  });
  return out;
}

/** wrangler's output applying `names`, one table after each (✅ done, 🕒️ waiting, ❌ failed). */
function migrationOutput(names: string[], failAt = -1): string {
  const out = [" ⛅️ wrangler 4.155.0", "────────────────────", "Resource location: local ", ""];
  out.push(
    "Migrations to be applied:",
    ...table(
      ["name"],
      names.map((n) => [`${n}.sql`]),
    ),
  );
  out.push(`? About to apply ${names.length} migration(s)`);
  for (let step = 0; step < names.length && (failAt < 0 || step <= failAt); step++) {
    out.push("🌀 Executing on local database DB (DB) from .wrangler/state/v3/d1:");
    out.push(
      step === failAt
        ? '✘ [ERROR] near "TABLEX": syntax error'
        : "🚣 4 commands executed successfully.",
    );
    const rows = names.map((n, i) => [
      `${n}.sql`,
      i < step ? "✅" : i === step ? (step === failAt ? "❌" : "✅") : "🕒️",
    ]);
    out.push(...table(["name", "status"], rows));
  }
  return out.join("\n");
}

/** `wrangler dev`'s own lines up to ready, offline, as `npm run dev` saw them. */
const DEV_START = [
  "",
  " ⛅️ wrangler 4.155.0 (update available 4.164.0)",
  "───────────────────────────────────────────────",
  "[custom build] Running: node scripts/build-client.mjs",
  "[custom build] [build-client] wrote assets/chat-B6MXJ3UU.js and assets/chat-XY2UGGIH.css (14333 B gzip, budget 15000)",
  "[custom build] ",
  "Using secrets defined in .dev.vars",
  "Your Worker has access to the following bindings:",
  "Binding                                                       Resource                  Mode",
  "env.LINK_LEDGER (LinkLedger)                                  Durable Object            local",
  'env.RATE_LIMIT_PER_MINUTE ("120")                             Environment Variable      local',
  'env.OPERATOR_TOKEN ("(hidden)")                               Environment Variable      local',
  "",
  "❓ Your types might be out of date. Re-run `wrangler types` to ensure your types are correct.",
  "[wrangler:warn] Unable to fetch the `Request.cf` object! Falling back to a default placeholder...",
  "Error: getaddrinfo ENOTFOUND workers.cloudflare.com",
  "    at GetAddrInfoReqWrap.onlookupall [as oncomplete] (node:dns:123:26)",
  "⎔ Starting local server...",
  "[wrangler:info] ✨ Parsed 4 valid header rules.",
  "⎔ Connection status updated",
  "[wrangler:info] Ready on http://127.0.0.1:8787",
  "[wrangler:info] GET /health 200 OK (1263ms)",
  "[wrangler:info] GET /v1/widget/launches/lnk_doesnotexist 404 Not Found (26ms)",
  "\x1b[33m[wrangler:info] POST /v1/manage/workflows 409 Conflict (18ms)\x1b[0m",
];

describe("summariseMigrations", () => {
  it("says in one line how many were applied, first and last", () => {
    const output = migrationOutput(NAMES);
    // What the start printed before: a table per migration.
    expect(output.split("\n").length).toBeGreaterThan(400);
    expect(summariseMigrations(output)).toBe(
      "D1 migrations: 13 applied (0000_step_0 … 0012_step_12).",
    );
    expect(summariseMigrations(migrationOutput(NAMES.slice(0, 1)))).toBe(
      "D1 migrations: 1 applied (0000_step_0).",
    );
  });

  it("says when there was none to apply", () => {
    const output =
      " ⛅️ wrangler 4.155.0\nResource location: local \n\n✅ No migrations to apply!\n";
    expect(summariseMigrations(output)).toBe("D1 migrations: none to apply.");
  });

  it("names the ones that failed", () => {
    expect(summariseMigrations(migrationOutput(NAMES.slice(0, 4), 2))).toBe(
      "D1 migrations: 2 applied (0000_step_0 … 0001_step_1), 1 failed (0002_step_2).",
    );
  });
});

describe("startFilter", () => {
  it("leaves out wrangler's start-up lines and the seed's requests, refusals included", () => {
    const filter = startFilter();
    expect(DEV_START.map((line) => filter.line(line)).filter((line) => line !== null)).toEqual([]);
  });

  it("shows errors, unknown warnings and the Worker's log lines, also before the banner", () => {
    const filter = startFilter();
    const real = [
      "✘ [ERROR] Build failed with 1 error:",
      '[custom build] ✘ [ERROR] Could not resolve "./missing"',
      '✘ [ERROR] {"level":"error","event":"request_failed","requestId":"req_1"}',
      "▲ [WARNING] Processing wrangler.toml configuration:",
      "[wrangler:warn] Something else went wrong",
      "Error: listen EADDRINUSE: address already in use 127.0.0.1:8787",
    ];
    const lines = [DEV_START[14] as string, DEV_START[15] as string, ...real];
    expect(lines.map((line) => filter.line(line)).filter((line) => line !== null)).toEqual(real);
  });

  it("shows the Worker's warnings, refusals such as a bad signature, as warnings, not red errors", () => {
    const filter = startFilter();
    const json =
      '{"level":"warn","event":"webhook_signature_refused","workflowId":"wf_1","node":"webhook_1","reason":"bad_signature"}';
    // As wrangler printed it, colours included.
    const printed = `\x1b[31m✘ \x1b[41;31m[\x1b[41;97mERROR\x1b[41;31m]\x1b[0m \x1b[1m${json}\x1b[0m`;
    expect(filter.line(printed)).toBe(`[worker:warn] ${json}`);
    const error = '✘ [ERROR] {"level":"error","event":"request_failed"}';
    expect(filter.line(error)).toBe(error);
  });

  it("shows every request once the banner is out", () => {
    const filter = startFilter();
    const line = "[wrangler:info] POST /v1/widget/launches 201 Created (27ms)";
    expect(filter.line(line)).toBeNull();
    filter.started();
    expect(filter.line(line)).toBe(line);
    const notFound = "[wrangler:info] GET /nope 404 Not Found (2ms)";
    expect(filter.line(notFound)).toBe(notFound);
  });

  it("takes a fresh start from hundreds of lines to a handful", () => {
    const filter = startFilter();
    const before = [...migrationOutput(NAMES).split("\n"), ...DEV_START];
    // The migrations are summarised, not filtered; the rest goes through the filter.
    const after = [
      summariseMigrations(migrationOutput(NAMES)),
      ...DEV_START.map((line) => filter.line(line)).filter((line) => line !== null),
    ];
    expect(before.length).toBeGreaterThan(420);
    expect(after).toHaveLength(1);
  });
});

describe(".dev-demo.env", () => {
  const demo = {
    workspaceId: "ws_1",
    workspaceSlug: "demo-workspace",
    memberToken: "mt_abc",
    agentId: "agt_1",
    channelId: "ch_1",
    widgetKey: "wk_live_abc",
    workflowId: "wf_1",
    webhookUrl: "http://127.0.0.1:8787/webhooks/demo-workspace/order-events/webhook_1",
    webhookSecret: 'it\'s $HOME `x` "q"',
  };

  it("gives bash the demo's values as written, quotes and $ included", () => {
    const env = demoEnv("http://127.0.0.1:8787", demo, { operatorToken: "op", linkId: "lnk_1" });
    const names = ["BASE_URL", "OWNER_TOKEN", "WIDGET_KEY", "FLOW_ID", "CHANNEL_ID", "LINK_ID"];
    const more = [
      "WORKSPACE_SLUG",
      "WORKFLOW_ID",
      "WEBHOOK_URL",
      "DEMO_WEBHOOK_SECRET",
      "OPERATOR_TOKEN",
    ];
    const script = `${env}\nfor n in ${[...names, ...more].join(" ")}; do printf '%s=%s\\n' "$n" "\${!n}"; done`;
    const run = spawnSync("bash", ["--noprofile", "--norc", "-c", script], {
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "" },
    });
    expect(run.stderr).toBe("");
    expect(run.stdout.trim().split("\n")).toEqual([
      "BASE_URL=http://127.0.0.1:8787",
      "OWNER_TOKEN=mt_abc",
      "WIDGET_KEY=wk_live_abc",
      "FLOW_ID=agt_1",
      "CHANNEL_ID=ch_1",
      "LINK_ID=lnk_1",
      "WORKSPACE_SLUG=demo-workspace",
      "WORKFLOW_ID=wf_1",
      `WEBHOOK_URL=${demo.webhookUrl}`,
      `DEMO_WEBHOOK_SECRET=${demo.webhookSecret}`,
      "OPERATOR_TOKEN=op",
    ]);
  });

  it("leaves out a link it does not have", () => {
    expect(demoEnv("http://x", demo)).not.toMatch(/LINK_ID|OPERATOR_TOKEN/);
  });
});
