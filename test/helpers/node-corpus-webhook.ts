/**
 * The webhook node's part of the corpus (node-corpus.ts): its own settings, `verify`, `dedupe`
 * and the immediate reply. Its templates read its own output, as `hook`.
 */
import { bad, type Corpus, jsonString, manyHeaders, type RawNode } from "./node-corpus";

const hook = (settings: RawNode): RawNode => ({ key: "hook", type: "webhook", ...settings });
const secret = "{{secrets.SIGNING}}";
const hmac = (settings: RawNode) => ({
  preset: "hmac-sha256",
  secret,
  header: "x-sig",
  ...settings,
});

const valid: RawNode[] = [
  { type: "webhook" },
  // A rotating secret (docs/webhooks.md#rotation) and presets of issue 31.
  hook({ verify: { preset: "discord", secret: [secret, "{{secrets.OLD}}"] } }),
  hook({ verify: { preset: "hmac-sha1", secret, header: "x-sig", prefix: "sha1=" } }),
  {
    key: `W${"a".repeat(63)}`,
    type: "webhook",
    name: "x".repeat(200),
    position: { x: 1_000_000, y: -1_000_000 },
    httpMethod: "HEAD",
    responseMode: "lastNode",
    responseTimeoutSeconds: 100,
    rateLimitPerMinute: 100_000,
  },
  {
    key: "a",
    type: "webhook",
    name: "x",
    httpMethod: "GET",
    responseMode: "responseNode",
    responseTimeoutSeconds: 1,
    rateLimitPerMinute: 1,
  },
  hook({
    responseMode: "immediate",
    responseStatus: 200,
    responseHeaders: {
      ...manyHeaders(18),
      "X-Order": "{{hook.body.id}}".padEnd(4_096, "-"),
      "set-cookie": "seen=1; Path=/; HttpOnly",
    },
    responseBody: jsonString(16_384, "{{hook.body.id}} {{$execution.id}}"),
  }),
  hook({ responseStatus: 299, responseHeaders: {}, responseBody: null }),
  hook({ responseBody: { ok: true, id: "{{hook.body.id}}", list: [1, "{{$execution.id}}"] } }),
  hook({ verify: { preset: "github", secret, toleranceSeconds: 86_400 }, dedupe: {} }),
  hook({
    verify: hmac({ secret: "{{ secrets.X_1 }}", header: "X-Signature", encoding: "base64" }),
    dedupe: { key: "{{hook.headers.x-id}}", windowSeconds: 1 },
  }),
  hook({
    verify: hmac({ encoding: "hex", prefix: "p".repeat(64), toleranceSeconds: 1 }),
    dedupe: { key: "{{hook.body.id}}".padEnd(500, "x"), windowSeconds: 86_400 },
  }),
  hook({ verify: hmac({ prefix: "" }) }),
  ...["stripe", "slack", "shopify", "twilio", "standard-webhooks"].map((preset) =>
    hook({ responseMode: "lastNode", verify: { preset, secret } }),
  ),
  hook({ verify: { preset: "stripe", secret }, dedupe: { windowSeconds: 60 } }),
  hook({ verify: { preset: "slack", secret }, dedupe: { key: "{{hook.body.event_id}}" } }),
  hook({ dedupe: { key: "{{hook.body.id}}" }, responseMode: "responseNode" }),
  hook({ verify: { preset: "twilio", secret }, dedupe: {} }),
  hook({ verify: hmac({}), dedupe: { windowSeconds: 604_800 } }),
  hook({ verify: { preset: "github", secret }, dedupe: false }),
  hook({ dedupe: false }),
  // The handshake presets (docs/webhooks.md#handshakes): meta's verifyToken, asana's no secret.
  ...["zoom", "microsoft-graph", "dropbox", "x"].map((preset) =>
    hook({ verify: { preset, secret } }),
  ),
  hook({ verify: { preset: "meta", secret, verifyToken: "{{secrets.TOKEN}}" } }),
  hook({ verify: { preset: "asana", toleranceSeconds: 60 } }),
  hook({ throttle: { limit: 1, periodSeconds: 1 } }),
  hook({ throttle: { limit: 1_000, periodSeconds: 86_400, key: "{{hook.body.account}}" } }),
  hook({ debounce: { key: "{{hook.body.customer}}", periodSeconds: 1 } }),
  hook({ debounce: { key: "", periodSeconds: 86_400, maxWaitSeconds: 86_400 }, dedupe: false }),
  hook({ batch: { maxSize: 2, maxWaitSeconds: 1 } }),
  hook({ batch: { maxSize: 1_000, maxWaitSeconds: 3_600, key: "{{hook.body.tenant}}" } }),
];

const invalid = [
  bad({ type: "webhook", key: "1bad" }, "key invalid_key"),
  bad({ type: "webhook", key: "secrets" }, "key invalid_key"),
  bad({ type: "webhook", key: "constructor" }, "key invalid_key"),
  bad({ type: "webhook", key: `W${"a".repeat(64)}` }, "key invalid_key"),
  bad({ type: "webhook", key: "a-b" }, "key invalid_key"),
  bad({ type: "webhook", key: 5 }, "key invalid_type"),
  bad({ type: "webhook", name: "" }, "name out_of_range"),
  bad({ type: "webhook", name: "x".repeat(201) }, "name out_of_range"),
  bad({ type: "webhook", name: 5 }, "name invalid_type"),
  bad({ type: "webhook", position: { x: 1_000_001, y: 0 } }, "position invalid_type"),
  bad({ type: "webhook", position: { x: 0 } }, "position invalid_type"),
  bad({ type: "webhook", position: { x: 0, y: 0, z: 0 } }, "position invalid_type"),
  bad({ type: "webhook", position: { x: "0", y: 0 } }, "position invalid_type"),
  bad({ type: "webhook", position: [0, 0] }, "position invalid_type"),
  bad({ type: "webhook", httpMethod: "post" }, "httpMethod invalid_http_method"),
  bad({ type: "webhook", httpMethod: 1 }, "httpMethod invalid_type"),
  bad({ type: "webhook", responseMode: "later" }, "responseMode invalid_option"),
  bad({ type: "webhook", responseTimeoutSeconds: 0 }, "responseTimeoutSeconds out_of_range"),
  bad({ type: "webhook", responseTimeoutSeconds: 101 }, "responseTimeoutSeconds out_of_range"),
  bad({ type: "webhook", responseTimeoutSeconds: 2.5 }, "responseTimeoutSeconds out_of_range"),
  bad({ type: "webhook", responseTimeoutSeconds: "25" }, "responseTimeoutSeconds invalid_type"),
  bad({ type: "webhook", rateLimitPerMinute: 0 }, "rateLimitPerMinute out_of_range"),
  bad({ type: "webhook", rateLimitPerMinute: 100_001 }, "rateLimitPerMinute out_of_range"),
  bad({ type: "webhook", url: "x" }, "url unknown_field"),
  // The immediate reply.
  bad(hook({ responseStatus: 199 }), "responseStatus out_of_range"),
  bad(hook({ responseStatus: 300 }), "responseStatus out_of_range"),
  bad(hook({ responseStatus: 200.5 }), "responseStatus out_of_range"),
  bad(hook({ responseStatus: "200" }), "responseStatus out_of_range"),
  bad(hook({ responseMode: "lastNode", responseStatus: 200 }), "responseStatus not_allowed"),
  bad(hook({ responseMode: "responseNode", responseHeaders: {} }), "responseHeaders not_allowed"),
  bad(hook({ responseMode: "lastNode", responseBody: null }), "responseBody not_allowed"),
  bad(hook({ responseHeaders: "x" }), "responseHeaders invalid_type"),
  bad(hook({ responseHeaders: manyHeaders(21) }), "responseHeaders too_large"),
  bad(hook({ responseHeaders: { "a b": "x" } }), "responseHeaders.a b invalid_header"),
  bad(hook({ responseHeaders: { "": "x" } }), "responseHeaders. invalid_header"),
  bad(
    hook({ responseHeaders: { "Content-Length": "1" } }),
    "responseHeaders.Content-Length refused_header",
  ),
  bad(
    hook({ responseHeaders: { "x-execution-id": "1" } }),
    "responseHeaders.x-execution-id refused_header",
  ),
  bad(
    hook({ responseHeaders: { "X-Debounced": "false" } }),
    "responseHeaders.X-Debounced refused_header",
  ),
  bad(
    hook({ responseHeaders: { "Set-Cookie": "a=1; Domain=evil.example" } }),
    "responseHeaders.Set-Cookie refused_header",
  ),
  bad(hook({ responseHeaders: { "x-a": "a".repeat(4_097) } }), "responseHeaders.x-a invalid_type"),
  bad(hook({ responseHeaders: { "x-a": 1 } }), "responseHeaders.x-a invalid_type"),
  bad(hook({ responseBody: jsonString(16_385) }), "responseBody too_large"),
  // verify
  bad(hook({ verify: "github" }), "verify invalid_type"),
  bad(hook({ verify: { preset: "gitlub", secret } }), "verify.preset invalid_option"),
  bad(
    hook({ verify: { preset: "github", secret: [secret, secret, secret] } }),
    "verify.secret invalid_secret",
  ),
  bad(
    hook({ verify: { preset: "github", secret: [secret, "plain"] } }),
    "verify.secret invalid_secret",
  ),
  bad(
    hook({ verify: { preset: "discord", secret, header: "x-sig" } }),
    "verify.header not_allowed",
  ),
  bad(hook({ verify: { secret } }), "verify.preset invalid_option"),
  bad(hook({ verify: { preset: "github" } }), "verify.secret invalid_secret"),
  bad(hook({ verify: { preset: "github", secret: "plain" } }), "verify.secret invalid_secret"),
  bad(
    hook({ verify: { preset: "github", secret: "{{secrets.A}}{{secrets.B}}" } }),
    "verify.secret invalid_secret",
  ),
  bad(
    hook({ verify: { preset: "stripe", secret, toleranceSeconds: 0 } }),
    "verify.toleranceSeconds out_of_range",
  ),
  bad(
    hook({ verify: { preset: "stripe", secret, toleranceSeconds: 86_401 } }),
    "verify.toleranceSeconds out_of_range",
  ),
  bad(
    hook({ verify: { preset: "stripe", secret, toleranceSeconds: 1.5 } }),
    "verify.toleranceSeconds out_of_range",
  ),
  bad(hook({ verify: { preset: "github", secret, algo: "x" } }), "verify.algo unknown_field"),
  bad(hook({ verify: { preset: "github", secret, header: "x" } }), "verify.header not_allowed"),
  bad(
    hook({ verify: { preset: "stripe", secret, encoding: "hex" } }),
    "verify.encoding not_allowed",
  ),
  bad(hook({ verify: { preset: "slack", secret, prefix: "v0=" } }), "verify.prefix not_allowed"),
  bad(hook({ verify: { preset: "hmac-sha256", secret } }), "verify.header required"),
  bad(hook({ verify: hmac({ header: "a b" }) }), "verify.header required"),
  bad(hook({ verify: hmac({ header: "" }) }), "verify.header required"),
  bad(hook({ verify: hmac({ encoding: "base32" }) }), "verify.encoding invalid_option"),
  bad(hook({ verify: hmac({ prefix: "p".repeat(65) }) }), "verify.prefix invalid_type"),
  bad(hook({ verify: hmac({ prefix: 1 }) }), "verify.prefix invalid_type"),
  bad(hook({ verify: { preset: "meta", secret } }), "verify.verifyToken invalid_secret"),
  bad(
    hook({ verify: { preset: "meta", secret, verifyToken: "token" } }),
    "verify.verifyToken invalid_secret",
  ),
  bad(hook({ verify: { preset: "asana", secret } }), "verify.secret not_allowed"),
  // dedupe
  bad(hook({ dedupe: true }), "dedupe invalid_type"),
  bad(hook({ dedupe: {} }), "dedupe.key required"),
  bad(hook({ dedupe: { windowSeconds: 60 } }), "dedupe.key required"),
  bad(hook({ verify: { preset: "github", secret }, dedupe: null }), "dedupe invalid_type"),
  bad(hook({ dedupe: { key: "x-id" } }), "dedupe.key invalid_type"),
  bad(hook({ dedupe: { key: "{{hook.body.id}}".padEnd(501, "x") } }), "dedupe.key invalid_type"),
  bad(hook({ dedupe: { key: 5 } }), "dedupe.key invalid_type"),
  bad(
    hook({ dedupe: { key: "{{hook.body.id}}", windowSeconds: 0 } }),
    "dedupe.windowSeconds out_of_range",
  ),
  bad(
    hook({ dedupe: { key: "{{hook.body.id}}", windowSeconds: 604_801 } }),
    "dedupe.windowSeconds out_of_range",
  ),
  bad(hook({ dedupe: { key: "{{hook.body.id}}", scope: "x" } }), "dedupe.scope unknown_field"),
  bad(hook({ throttle: { limit: 0, periodSeconds: 1 } }), "throttle.limit out_of_range"),
  bad(
    hook({ throttle: { limit: 1, periodSeconds: 86_401 } }),
    "throttle.periodSeconds out_of_range",
  ),
  bad(hook({ throttle: { limit: 1, periodSeconds: 1, key: 5 } }), "throttle.key invalid_type"),
  bad(hook({ debounce: { periodSeconds: 1 } }), "debounce.key invalid_type"),
  bad(hook({ debounce: { key: "k", periodSeconds: 0 } }), "debounce.periodSeconds out_of_range"),
  bad(
    hook({ debounce: { key: "k", periodSeconds: 1, maxWaitSeconds: 86_401 } }),
    "debounce.maxWaitSeconds out_of_range",
  ),
  bad(hook({ batch: { maxSize: 1_001, maxWaitSeconds: 1 } }), "batch.maxSize out_of_range"),
  bad(hook({ batch: { maxSize: 2, maxWaitSeconds: 0 } }), "batch.maxWaitSeconds out_of_range"),
  bad(hook({ batch: { maxSize: 2, maxWaitSeconds: 1, size: 3 } }), "batch.size unknown_field"),
  bad(
    hook({ debounce: { key: "k", periodSeconds: 1 }, responseMode: "lastNode" }),
    "debounce not_allowed",
  ),
  bad(
    hook({ batch: { maxSize: 2, maxWaitSeconds: 1 }, responseMode: "responseNode" }),
    "batch not_allowed",
  ),
  bad(
    hook({ debounce: { key: "k", periodSeconds: 1 }, batch: { maxSize: 2, maxWaitSeconds: 1 } }),
    "batch not_allowed",
  ),
];

/** The webhook node's corpus. */
export const webhook: Corpus = { valid, invalid };
