/**
 * The settings check (docs/operations.md#configuration): wrong secrets and vars are found once per
 * environment, each named with the rule it breaks and never with its value, and every request is
 * answered 500 `misconfigured` in the one envelope, with one log line.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { misconfiguration } from "../../src/platform/config";

/** The test runtime's environment with some settings changed (a new object: checked afresh). */
const changed = (settings: Record<string, string | undefined>) =>
  ({ ...env, ...settings }) as typeof env;

const SHORT_KEY = btoa("sixteen byte key");
const GOOD_KEY = btoa("k".repeat(32));

afterEach(() => {
  vi.restoreAllMocks();
});

describe("misconfiguration", () => {
  it("finds nothing wrong with the test runtime's settings", () => {
    expect(misconfiguration(env)).toBeNull();
  });

  it.each([
    [
      "SECRETS_KEY unset",
      { SECRETS_KEY: undefined },
      "SECRETS_KEY: is not set; it must be base64 of 32 random bytes.",
    ],
    [
      "SECRETS_KEY of 16 bytes",
      { SECRETS_KEY: SHORT_KEY },
      "SECRETS_KEY: must be base64 of 32 random bytes.",
    ],
    [
      "SECRETS_KEY not base64",
      { SECRETS_KEY: "not base64!" },
      "SECRETS_KEY: must be base64 of 32 random bytes.",
    ],
    [
      "SECRETS_KEY_PREVIOUS with a 16-byte entry",
      { SECRETS_KEY_PREVIOUS: `${GOOD_KEY},${SHORT_KEY}` },
      "SECRETS_KEY_PREVIOUS: each comma-separated entry must be base64 of 32 random bytes.",
    ],
    [
      "OPERATOR_TOKEN unset",
      { OPERATOR_TOKEN: undefined },
      "OPERATOR_TOKEN: is not set; it must be a random string of at least 32 characters.",
    ],
    [
      "OPERATOR_TOKEN short",
      { OPERATOR_TOKEN: "short-token" },
      "OPERATOR_TOKEN: must be a random string of at least 32 characters.",
    ],
    [
      "BASE_URL without a scheme",
      { BASE_URL: "launch.example.com" },
      "BASE_URL: must be an http(s) URL such as https://launch.example.com.",
    ],
    [
      "APP_URL over ftp",
      { APP_URL: "ftp://app.example.com" },
      "APP_URL: must be an http(s) URL such as https://app.example.com.",
    ],
    [
      "RATE_LIMIT_PER_MINUTE not a number",
      { RATE_LIMIT_PER_MINUTE: "lots" },
      "RATE_LIMIT_PER_MINUTE: must be a whole number from 1 to 999999999.",
    ],
    [
      "MAX_PENDING_LINKS zero",
      { MAX_PENDING_LINKS: "0" },
      "MAX_PENDING_LINKS: must be a whole number from 1 to 999999999.",
    ],
    [
      "ALLOW_PRIVATE_OUTBOUND yes",
      { ALLOW_PRIVATE_OUTBOUND: "yes" },
      'ALLOW_PRIVATE_OUTBOUND: must be "true" or "false".',
    ],
  ])("names the variable and its rule: %s", (_case, settings, problem) => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    expect(misconfiguration(changed(settings))).toBe(problem);
  });

  it("accepts what is optional left unset or empty, and a rotation's previous keys", () => {
    const settings = {
      BASE_URL: "",
      APP_URL: "https://app.example.com",
      LLM_BASE_URL: undefined,
      SECRETS_KEY_PREVIOUS: ` ${GOOD_KEY} , ${btoa("p".repeat(32))}`,
      ALLOW_PRIVATE_OUTBOUND: "false",
    };
    expect(misconfiguration(changed(settings))).toBeNull();
  });

  it("names every wrong variable at once", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const problem = misconfiguration(changed({ SECRETS_KEY: SHORT_KEY, OPERATOR_TOKEN: "x" }));
    expect(problem).toContain("OPERATOR_TOKEN:");
    expect(problem).toContain("SECRETS_KEY:");
  });
});

describe("a misconfigured Worker", () => {
  it("answers every request 500 misconfigured, naming the variable and never its value, and logs once", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const wrong = changed({ SECRETS_KEY: SHORT_KEY });
    const requests = [
      new Request("http://agent-edge.test/health"),
      new Request("http://agent-edge.test/v1/widget/links", {
        method: "POST",
        headers: { authorization: "Bearer wk_anything", "content-type": "application/json" },
        body: "{}",
      }),
      new Request("http://agent-edge.test/webhooks/ws/flow/node", { method: "POST", body: "{}" }),
    ];
    for (const request of requests) {
      const response = await worker.fetch(request, wrong);
      expect(response.status, request.url).toBe(500);
      const body = (await response.json()) as { error: Record<string, unknown> };
      expect(body.error).toMatchObject({
        code: "misconfigured",
        message: "The service is misconfigured. SECRETS_KEY: must be base64 of 32 random bytes.",
        details: [],
      });
      expect(body.error.requestId).toBe(response.headers.get("x-request-id"));
      expect(JSON.stringify(body)).not.toContain(SHORT_KEY);
    }
    const lines = errors.mock.calls.map(([line]) => String(line));
    expect(lines.filter((line) => line.includes('"misconfigured"'))).toHaveLength(1);
    expect(lines.join("\n")).not.toContain(SHORT_KEY);
  });

  it("answers as usual once its settings are right", async () => {
    const response = await worker.fetch(new Request("http://agent-edge.test/health"), env);
    expect(response.status).toBe(200);
  });
});
