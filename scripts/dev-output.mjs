// What `npm run dev` shows of wrangler's output (README "Quick start": one banner). wrangler prints
// a table per migration (about 30 lines each: 210 lines for a fresh database), its bindings twice,
// its build's lines, and a log line for each of the seed's own calls, refusals it expects included;
// the start shows one line for the migrations and passes on only what the developer needs: errors,
// warnings we do not know to be harmless, and, once the banner is out, the request log. The
// Worker's own warnings (docs/security.md#logs: refusals such as a bad webhook signature) reach
// wrangler through console.error, which prints them as red `✘ [ERROR]`: they are shown as the
// warnings they are.

/**
 * One line for `wrangler d1 migrations apply --local`'s output: how many were applied and their
 * first and last names, or that there was none to apply.
 * @param {string} output the command's whole output (stdout and stderr)
 * @returns {string} e.g. `D1 migrations: 13 applied (0000_init … 0012_audit_log).`
 */
export function summariseMigrations(output) {
  if (/No migrations to apply/i.test(output)) return "D1 migrations: none to apply.";
  // Each table row names a migration and, in the tables after each step, its status; the last
  // row seen for a name is its final state.
  const status = new Map();
  for (const line of output.split(/\r?\n/)) {
    const cells = line.split("│").map((cell) => cell.trim());
    const name = cells[1]?.match(/^(\S+)\.sql$/)?.[1];
    if (name) status.set(name, cells[2] || status.get(name) || "");
  }
  const names = [...status.keys()];
  const applied = names.filter((name) => status.get(name) === "✅");
  const failed = names.filter((name) => status.get(name) === "❌");
  if (names.length === 0) return "D1 migrations: applied (wrangler listed none).";
  const span = (list) => (list.length === 1 ? list[0] : `${list[0]} … ${list.at(-1)}`);
  const parts = [`D1 migrations: ${applied.length} applied`];
  if (applied.length > 0) parts[0] += ` (${span(applied)})`;
  if (failed.length > 0) parts.push(`${failed.length} failed (${span(failed)})`);
  return `${parts.join(", ")}.`;
}

/** Lines of `wrangler dev` that never need the developer: its header, build, bindings, start. */
const NOISE = [
  /^\s*$/,
  /^\s*⛅️ wrangler /,
  /^[─-]+$/,
  /^\[custom build\] (Running: node scripts\/build-client\.mjs|\[build-client\] wrote |\s*$)/,
  /^Using (vars|secrets) defined in /,
  /^Your Worker has access to the following bindings:/,
  /^Binding\s+Resource\s+Mode/,
  /^env\.\S+ .*\s(local|remote)$/,
  /^❓ Your types might be out of date/,
  /^⎔ (Starting local server|Reloading local server|Connection status updated|Shutting down)/,
  /^\[wrangler:info\] (✨ Parsed \d+ valid header rules|Ready on )/,
];

/** Colour codes, which wrangler writes on a terminal. */
const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/** wrangler's request log line, e.g. `[wrangler:info] GET /health 200 OK (12ms)`. */
const REQUEST_LINE = /^\[wrangler:info\] [A-Z]+ \S+ \d{3} /;

/** The Worker's warn-level log line as wrangler prints it (src/platform/log.ts). */
const WORKER_WARNING = /^✘ \[ERROR\] (\{"level":"warn".*)$/;

/**
 * A filter for `wrangler dev`'s lines during `npm run dev`. Before `started()`, the seed's own
 * requests (their refusals included: a 404 is how it checks a stored key) are not shown; after it,
 * every request is, as wrangler logs it. Offline, wrangler warns that it cannot fetch `Request.cf`
 * and prints the DNS error's stack: harmless locally, so those lines go too. The Worker's
 * warn-level lines are shown as `[worker:warn] {…}`. Anything else is shown as it came: errors,
 * unknown warnings, the Worker's other log lines.
 * @returns {{ line(text: string): string | null, started(): void }} `line`: what to print for a
 *   line of wrangler's, or null to leave it out
 */
export function startFilter() {
  let started = false;
  let inCfWarning = false;
  return {
    line(text) {
      const plain = text.replace(ANSI_COLOUR, "");
      if (/^\[wrangler:warn\] Unable to fetch the `Request\.cf` object/.test(plain)) {
        inCfWarning = true;
        return null;
      }
      if (inCfWarning) {
        // The warning's error and its stack, up to the next line of another kind.
        if (/^(Error: getaddrinfo |\s+at )/.test(plain)) return null;
        inCfWarning = false;
      }
      if (NOISE.some((pattern) => pattern.test(plain))) return null;
      if (!started && REQUEST_LINE.test(plain)) return null;
      const warning = plain.match(WORKER_WARNING);
      return warning ? `[worker:warn] ${warning[1]}` : text;
    },
    started() {
      started = true;
    },
  };
}
