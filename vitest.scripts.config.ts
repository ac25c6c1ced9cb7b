import { defineConfig } from "vitest/config";

/**
 * Tests of the operator's scripts (`npm run test:scripts`): `npm run deploy` against a fake
 * wrangler and the smoke's own behaviour against a stand-in server. Plain Node, not the Cloudflare
 * pool: they run the scripts as child processes, as an operator does.
 */
export default defineConfig({
  test: {
    include: ["test/scripts/**/*.spec.ts"],
    environment: "node",
    testTimeout: 120_000,
    hookTimeout: 60_000,
    reporters: ["default"],
  },
});
