// The webhook scenarios (ours, and the same calls to the Node-RED peer): immediate and lastNode
// through webhook → secret check → set, and the immediate one behind a GitHub signature and with
// deduplication (every call a new delivery), debounced over 100 keys, and batched by 100.
import { createHmac } from "node:crypto";
import { GITHUB_SECRET, HOOK_BODY, LAST_NODE_ANSWER, WEBHOOK_SECRET } from "./workflows.mjs";

let deliveries = 0;
let customers = 0;
/** The debounce scenario's keys: its calls cycle through them (each merges into its key's execution). */
const FLOW_KEYS = 100;

/** A POST of the bench body with the secret header; `onResponse` counts wrong lastNode answers. */
function hookRequest(pathname, extraHeaders = {}) {
  return {
    method: "POST",
    path: pathname,
    headers: {
      "content-type": "application/json",
      "x-webhook-secret": WEBHOOK_SECRET,
      ...extraHeaders,
    },
    body: HOOK_BODY,
  };
}

/** lastNode's answer must be the set node's output; a wrong one is counted as a failure. */
function checkedLastNode(pathname, wrong) {
  return {
    ...hookRequest(pathname),
    onResponse(status, text) {
      if (status === 200 && text !== LAST_NODE_ANSWER) wrong.count++;
    },
  };
}

/** Our webhook scenarios, given the seeded paths by slug. */
export function webhookScenarios(paths) {
  const wrong = { count: 0 };
  const signature = `sha256=${createHmac("sha256", GITHUB_SECRET).update(HOOK_BODY).digest("hex")}`;
  return [
    { name: "webhook-immediate", expect: 200, request: hookRequest(paths["bench-immediate"]) },
    {
      name: "webhook-lastNode",
      expect: 200,
      request: checkedLastNode(paths["bench-last-node"], wrong),
      after: (row) => {
        row.wrongAnswers = wrong.count;
        if (wrong.count > 0) row.unexpectedStatus += wrong.count;
      },
    },
    {
      name: "webhook-verify",
      expect: 200,
      request: hookRequest(paths["bench-github"], { "x-hub-signature-256": signature }),
    },
    {
      name: "webhook-dedupe",
      expect: 200,
      request: {
        ...hookRequest(paths["bench-dedupe"]),
        setupRequest(req) {
          req.headers = { ...req.headers, "x-delivery": `d-${deliveries++}` };
          return req;
        },
      },
    },
    {
      name: "webhook-debounce",
      expect: 200,
      request: {
        ...hookRequest(paths["bench-debounce"]),
        setupRequest(req) {
          req.headers = { ...req.headers, "x-customer": `c-${customers++ % FLOW_KEYS}` };
          return req;
        },
      },
    },
    { name: "webhook-batch", expect: 200, request: hookRequest(paths["bench-batch"]) },
  ];
}

/** Immediate calls to a workflow on 1, 2 and 4 runner shards (docs/scaling.md#runner-shards). */
export function shardScenarios(paths) {
  return [1, 2, 4].map((shards) => ({
    name: `webhook-shards-${shards}`,
    expect: 200,
    request: hookRequest(paths[`bench-shards-${shards}`]),
  }));
}

/** One runner's request, for its capacity (scripts/bench/capacity.mjs). */
export const oneRunnerRequest = (paths) => hookRequest(paths["bench-capacity"]);

/** The same immediate and lastNode calls, to the peer's routes. */
export const peerScenarios = {
  secret: WEBHOOK_SECRET,
  list: (routes) => [
    { name: "webhook-immediate", expect: 200, request: hookRequest(routes.immediate) },
    {
      name: "webhook-lastNode",
      expect: 200,
      request: checkedLastNode(routes.lastNode, { count: 0 }),
    },
  ],
};
