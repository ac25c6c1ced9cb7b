import { defineConfig } from "vitest/config";

/**
 * End-to-end browser tests (`npx vitest run -c vitest.browser.config.ts`): plain Node, not the
 * Cloudflare pool, because each test file starts its own `wrangler dev` and drives Chromium
 * against it. One file at a time: every file runs a Worker and a browser of its own.
 */
export default defineConfig({
  test: {
    include: ["test/browser/**/*.spec.ts"],
    environment: "node",
    testTimeout: 120_000,
    // Covers migrations, `wrangler dev` start-up (up to 90 s) and seeding.
    hookTimeout: 180_000,
    fileParallelism: false,
    reporters: ["default"],
  },
});
