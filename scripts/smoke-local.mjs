// `npm run test:smoke` (part of `npm test`): the smoke (scripts/smoke.mjs) against a local server
// of its own (scripts/local-server.mjs: fresh state in a temporary folder, random secrets,
// ALLOW_PRIVATE_OUTBOUND=true so the smoke's event receiver on 127.0.0.1 may be reached), then
// the server is stopped. The smoke runs as an operator runs it (`node scripts/smoke.mjs <base>`
// with OPERATOR_TOKEN in its environment); its output is shown as it comes. Bounded: the server
// has 90 s to answer /health and the smoke 3 minutes, after which it is stopped (it still deletes
// its workspace) and the run fails. Never touches `npm run dev`'s port, state or .dev.vars.
import { spawn } from "node:child_process";
import path from "node:path";
import { ROOT, startFreshServer } from "./local-server.mjs";

const SMOKE_MS = 180_000;

console.log("[test:smoke] Starting a local server with fresh state...");
let server;
let operatorToken;
try {
  ({ server, operatorToken } = await startFreshServer({ ALLOW_PRIVATE_OUTBOUND: "true" }));
} catch (error) {
  console.error(`[test:smoke] ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
let code;
try {
  const smoke = spawn(process.execPath, [path.join(ROOT, "scripts", "smoke.mjs"), server.base], {
    env: { ...process.env, OPERATOR_TOKEN: operatorToken, SMOKE_EVENT_URL: "" },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const timer = setTimeout(() => {
    console.error(`[test:smoke] The smoke took over ${SMOKE_MS / 1000} s; stopping it.`);
    smoke.kill("SIGTERM");
  }, SMOKE_MS);
  code = await new Promise((resolve) => smoke.once("close", (exit) => resolve(exit ?? 1)));
  clearTimeout(timer);
  if (code !== 0) console.error(`[test:smoke] wrangler's output, last lines:\n${server.output()}`);
} finally {
  await server.stop();
}
process.exit(code);
