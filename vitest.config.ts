import { availableParallelism } from "node:os";
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { startEchoServer } from "./test/helpers/echo-server.mjs";
import { startFakeOpenAi } from "./test/helpers/fake-openai.mjs";

/**
 * Tests run in workerd with the bindings of wrangler.toml; each test file seeds its own data.
 * Two runtimes: most files run as local development does (`ALLOW_PRIVATE_OUTBOUND=true`, so the
 * http_request node and event deliveries reach the echo server on 127.0.0.1); `*.deployed.test.ts`
 * files run on a runtime with the deployed defaults, where the outbound policy refuses private
 * destinations (docs/security.md#outbound-requests).
 */
export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  // The http_request node fetches for real; this server on 127.0.0.1 answers those fetches.
  const echo = await startEchoServer();
  // The OpenAI-compatible brain streams from this fake chat-completions server on 127.0.0.1.
  const llm = await startFakeOpenAi();
  const runtime = (vars: Record<string, string>) =>
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: {
          TEST_MIGRATIONS: migrations,
          OPERATOR_TOKEN: "test-operator-token-of-32-characters",
          SECRETS_KEY: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
          ECHO_URL: echo.url,
          FAKE_LLM_URL: llm.url,
          // The schema fuzz draws a new seed each run; FUZZ_SEED=<n> replays one (test/platform/fuzz.test.ts).
          FUZZ_SEED: process.env.FUZZ_SEED ?? "",
          // The chat page's origin, as the tests call the Worker: create_link builds its URLs on it.
          BASE_URL: "https://edge.test",
          ...vars,
        },
      },
    });
  const shared = {
    setupFiles: ["./test/helpers/apply-migrations.ts"],
    // Each file waits on workerd for much of its time, so one worker per core (vitest's default
    // leaves one core idle).
    maxWorkers: Math.max(2, availableParallelism()),
    // The files of a worker share one runtime instead of starting workerd each: the suite takes
    // about 45 s instead of 3 minutes. Every file seeds workspaces of its own and restores the
    // clock it moves, so no file sees another's data; D1 and the objects are shared.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  };
  // The cost meter (test/cost) counts every call the runtime makes: it runs on a runtime of its
  // own (`npm run test:cost`), where no other file's background work can reach its counts.
  if (process.env.COST_TESTS) {
    return {
      plugins: [runtime({ ALLOW_PRIVATE_OUTBOUND: "true" })],
      test: { ...shared, include: ["test/cost/**/*.test.ts"] },
    };
  }
  return {
    test: {
      ...shared,
      projects: [
        {
          // Event endpoints and http_request nodes on the echo server are http://127.0.0.1.
          plugins: [runtime({ ALLOW_PRIVATE_OUTBOUND: "true" })],
          test: {
            ...shared,
            name: "development",
            include: ["test/**/*.test.ts"],
            exclude: [
              "test/cost/**",
              "test/**/*.deployed.test.ts",
              "test/**/*.alone.test.ts",
              "node_modules/**",
            ],
          },
        },
        {
          // Jobs that walk the whole database (the reseal): on a runtime of their own, they walk
          // their own data, not every other file's (the shared runtime made one file 200 s).
          plugins: [runtime({ ALLOW_PRIVATE_OUTBOUND: "true" })],
          test: { ...shared, name: "alone", include: ["test/**/*.alone.test.ts"] },
        },
        {
          plugins: [runtime({})],
          test: { ...shared, name: "deployed", include: ["test/**/*.deployed.test.ts"] },
        },
      ],
    },
  };
});
