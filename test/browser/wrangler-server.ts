/**
 * The browser tests' server: the shared scripts/local-server.mjs (as `npm run dev` and the
 * benchmark use it) with fresh state in a temporary directory and random secrets, so it never
 * touches the developer's `npm run dev` (port 8787, .wrangler/state, .dev.vars).
 */
import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { type LocalServer, ROOT, startLocalServer } from "../../scripts/local-server.mjs";

export { ROOT };

/** A running server and the OPERATOR_TOKEN it was started with. */
export type WranglerServer = LocalServer & { operatorToken: string };

/**
 * Starts the server on a free port of 127.0.0.1, from a copy of the D1 state the global setup
 * migrated, and waits for `/health`.
 * @param vars more Worker vars, e.g. `ALLOW_PRIVATE_OUTBOUND`
 */
export async function startWranglerServer(
  vars: Record<string, string> = {},
): Promise<WranglerServer> {
  const operatorToken = randomBytes(32).toString("hex");
  const server = await startLocalServer({
    state: "temporary",
    vars: {
      OPERATOR_TOKEN: operatorToken,
      SECRETS_KEY: randomBytes(32).toString("base64"),
      ...vars,
    },
    logLevel: "warn",
    // Built once for all spec files (global-build.ts): files run two at a time.
    prebuilt: true,
    migratedState: inject("migratedState"),
  });
  return { ...server, operatorToken };
}
