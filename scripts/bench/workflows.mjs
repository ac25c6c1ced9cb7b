// The benchmark's workflows: the spec's example shape (webhook → condition on a shared secret →
// set), answered at once or with the set node's output, with a signature check, with
// deduplication, and a held one (a `wait` node) for the hold test. The Node-RED peer runs the same
// webhook → secret check → set flow (scripts/bench/node-red-peer.mjs).
import { randomBytes } from "node:crypto";
import { fetchApi } from "../local-server.mjs";

export const WEBHOOK_SECRET = randomBytes(24).toString("base64url");
export const GITHUB_SECRET = randomBytes(24).toString("base64url");
/** The hold test's `wait` (seconds). */
export const HOLD_WAIT_SECONDS = 5;
/** Every bench call sends this body; lastNode answers {"ok":true,"orderId":1042}. */
export const HOOK_BODY = JSON.stringify({ orderId: 1042, items: [{ sku: "A-1", qty: 2 }] });
export const LAST_NODE_ANSWER = '{"ok":true,"orderId":1042}';

/** The most a node allows: the check still runs on every call. */
const hookNode = (settings) => ({ type: "webhook", rateLimitPerMinute: 100_000, ...settings });

/** webhook → check (`x-webhook-secret` equals the secret) → ok / refused. */
function checked(webhook) {
  return {
    nodes: [
      webhook,
      {
        key: "check",
        type: "condition",
        left: "{{webhook_1.headers.x-webhook-secret}}",
        operator: "equals",
        right: "{{secrets.WEBHOOK_SECRET}}",
      },
      { key: "ok", type: "set", fields: { ok: true, orderId: "{{webhook_1.body.orderId}}" } },
      { key: "refused", type: "set", fields: { ok: false } },
    ],
    connections: [
      { from: "webhook_1", to: "check" },
      { from: "check", to: "ok", branch: "true" },
      { from: "check", to: "refused", branch: "false" },
    ],
  };
}

/** An immediate workflow on one runner: its concurrency limit keeps it on one (docs/scaling.md#runner-shards). */
const oneRunner = () => ({
  ...checked(hookNode({})),
  concurrency: { limit: 100, queueLimit: 10_000 },
});

/** The bench's workflows by slug. */
export const WORKFLOWS = {
  "bench-immediate": checked(hookNode({})),
  "bench-last-node": checked(hookNode({ responseMode: "lastNode" })),
  // The scenario sends one signed body again and again: the default deduplication would answer
  // all but the first as repeats, so it is off here; the dedupe scenario measures a claim.
  "bench-github": checked(
    hookNode({
      verify: { preset: "github", secret: "{{secrets.GITHUB_SECRET}}" },
      dedupe: false,
    }),
  ),
  "bench-dedupe": checked(hookNode({ dedupe: { key: "{{webhook_1.headers.x-delivery}}" } })),
  // Flow control (docs/webhooks.md#debounce, docs/webhooks.md#batch): each call merged into its
  // key's execution (100 keys, a 1 s period), or gathered into batches of 100.
  "bench-debounce": checked(
    hookNode({ debounce: { key: "{{webhook_1.headers.x-customer}}", periodSeconds: 1 } }),
  ),
  "bench-batch": {
    nodes: [
      hookNode({ batch: { maxSize: 100, maxWaitSeconds: 1 } }),
      { key: "ok", type: "set", fields: { first: "{{webhook_1.items.0.body.orderId}}" } },
    ],
    connections: [{ from: "webhook_1", to: "ok" }],
  },
  // Runner shards (docs/scaling.md#runner-shards): one runner, two (60,000 a minute) and four
  // (100,000).
  "bench-shards-1": oneRunner(),
  "bench-shards-2": checked(hookNode({ rateLimitPerMinute: 60_000 })),
  "bench-shards-4": checked(hookNode({})),
  // One runner's capacity (scripts/bench/capacity.mjs) has a workflow of its own: sharing one
  // with a scenario, its steps ran in the minute after that scenario's calls and met the node's
  // rate limit (429) before the runner's p99 passed 100 ms.
  "bench-capacity": oneRunner(),
  "bench-hold": {
    nodes: [
      hookNode({ responseMode: "lastNode", responseTimeoutSeconds: 100 }),
      { key: "pause", type: "wait", seconds: HOLD_WAIT_SECONDS },
      { key: "ok", type: "set", fields: { ok: true, n: "{{webhook_1.body.n}}" } },
    ],
    connections: [
      { from: "webhook_1", to: "pause" },
      { from: "pause", to: "ok" },
    ],
  },
};

/**
 * Seeding call through `fetchApi` (JSON, a bearer `token` unless none): the answer's JSON, or an
 * Error unless the expected status.
 */
export async function post(base, route, token, body, { method = "POST", expect = 201 } = {}) {
  const res = await fetchApi(base)(method, route, { token, body });
  if (res.status !== expect)
    throw new Error(`${method} ${route} → ${res.status}, not ${expect}: ${res.text}`);
  return res.json ?? null;
}

/**
 * Puts the secrets in the workspace and creates and starts each of WORKFLOWS (or those `slugs`).
 * Resolves to each webhook's path by slug.
 * @param {string} base
 * @param {string} token a member's API key
 */
export async function seedWorkflows(base, token, slugs = Object.keys(WORKFLOWS)) {
  for (const [name, value] of [
    ["WEBHOOK_SECRET", WEBHOOK_SECRET],
    ["GITHUB_SECRET", GITHUB_SECRET],
  ]) {
    const route = `/v1/manage/secrets/${name}`;
    await post(base, route, token, { value }, { method: "PUT", expect: 204 });
  }
  const paths = {};
  for (const slug of slugs) {
    const created = await post(base, "/v1/manage/workflows", token, {
      name: slug,
      slug,
      ...WORKFLOWS[slug],
    });
    await post(base, `/v1/manage/workflows/${created.id}/start`, token, undefined, {
      expect: 200,
    });
    paths[slug] = new URL(created.webhookUrls.webhook_1).pathname;
  }
  return paths;
}
