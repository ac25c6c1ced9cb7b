import { availableParallelism } from "node:os";
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { startEchoServer } from "./test/helpers/echo-server.mjs";
import { startFakeOpenAi } from "./test/helpers/fake-openai.mjs";

/** Tests run in workerd with the bindings of wrangler.toml; each test file seeds its own data. */
export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  // The http_request node fetches for real; this server on 127.0.0.1 answers those fetches.
  const echo = await startEchoServer();
  // The OpenAI-compatible brain streams from this fake chat-completions server on 127.0.0.1.
  const llm = await startFakeOpenAi();
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            OPERATOR_TOKEN: "test-operator-token",
            SECRETS_KEY: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
            ECHO_URL: echo.url,
            FAKE_LLM_URL: llm.url,
            // Event endpoints on the echo server are http://127.0.0.1 (docs/events.md#event-endpoints).
            ALLOW_HTTP_EVENT_ENDPOINTS: "true",
            // The schema fuzz draws a new seed each run; FUZZ_SEED=<n> replays one (test/platform/fuzz.test.ts).
            FUZZ_SEED: process.env.FUZZ_SEED ?? "",
          },
        },
      }),
    ],
    test: {
      // The cost meter (test/cost) counts every call the runtime makes: it runs on a runtime of its
      // own (`npm run test:cost`), where no other file's background work can reach its counts.
      include: process.env.COST_TESTS ? ["test/cost/**/*.test.ts"] : ["test/**/*.test.ts"],
      exclude: process.env.COST_TESTS ? [] : ["test/cost/**", "node_modules/**"],
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
    },
  };
});
