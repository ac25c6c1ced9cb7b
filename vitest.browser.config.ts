import { defineConfig } from "vitest/config";

/**
 * End-to-end browser tests (`npx vitest run -c vitest.browser.config.ts`): plain Node, not the
 * Cloudflare pool, because each test file starts its own `wrangler dev` (fresh state, a free port)
 * and drives Chromium against it. Two files at a time: much of a file's time is waiting (the
 * server starting, sockets, timers), so two overlap well on a 2-core machine; more would fight
 * over the cores.
 */
export default defineConfig({
  test: {
    include: ["test/browser/**/*.spec.ts"],
    // Builds dist/client once; each file's server then serves it without rebuilding.
    globalSetup: ["test/browser/global-build.ts"],
    environment: "node",
    testTimeout: 120_000,
    // Covers migrations, `wrangler dev` start-up (up to 90 s) and seeding.
    hookTimeout: 180_000,
    fileParallelism: true,
    maxWorkers: 2,
    reporters: ["default"],
  },
});
