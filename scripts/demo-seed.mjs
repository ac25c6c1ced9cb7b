// The demo data of `npm run dev`, seeded through the HTTP API only: a workspace with an owner, an
// initiator agent, a widget channel and a widget key, plus a running webhook workflow (the spec's
// own example). No Node imports: test/integration/dev-demo.test.ts loads this module in workerd.

/**
 * Calls the service's HTTP API: `method` and `path` (starting with `/`), an optional bearer
 * `token`, an optional JSON `body` and more `headers`. `json` is the parsed body when the answer
 * is JSON.
 * @typedef {(method: string, path: string, options?: { token?: string, body?: unknown,
 *   headers?: Record<string, string> }) =>
 *   Promise<{ status: number, json: any, text: string }>} Api
 */

/**
 * What {@link seedDemoWorkspace} creates.
 * @typedef {{ workspaceId: string, workspaceSlug: string, memberToken: string, agentId: string,
 *   channelId: string, widgetKey: string }} DemoWorkspace
 */

/**
 * What {@link seedDemoWorkflow} creates.
 * @typedef {{ workflowId: string, webhookUrl: string, webhookSecret: string }} DemoWorkflow
 */

/** Slug of the demo workflow; its webhook URL ends in `/<workspace slug>/order-events/webhook_1`. */
export const DEMO_WORKFLOW_SLUG = "order-events";

/**
 * The spec's example workflow: the webhook answers with the last node's output, and a Condition
 * node compares the `x-webhook-secret` header with the workspace secret WEBHOOK_SECRET.
 */
const DEMO_WORKFLOW = {
  name: "Order events",
  slug: DEMO_WORKFLOW_SLUG,
  nodes: [
    { type: "webhook", responseMode: "lastNode" },
    {
      key: "check",
      type: "condition",
      left: "{{webhook_1.headers.x-webhook-secret}}",
      operator: "equals",
      right: "{{secrets.WEBHOOK_SECRET}}",
    },
    {
      key: "accepted",
      type: "set",
      fields: {
        ok: true,
        orderId: "{{webhook_1.body.orderId}}",
        message: "Order {{webhook_1.body.orderId}} received",
      },
    },
    {
      key: "refused",
      type: "set",
      fields: { ok: false, reason: "The x-webhook-secret header is wrong." },
    },
  ],
  connections: [
    { from: "webhook_1", to: "check" },
    { from: "check", to: "accepted", branch: "true" },
    { from: "check", to: "refused", branch: "false" },
  ],
};

/**
 * Calls `api` and throws unless the status is one of `expected` (default: any 2xx).
 * @param {Api} api
 * @param {string} method
 * @param {string} path
 * @param {{ token?: string, body?: unknown }} [options]
 * @param {number[]} [expected]
 */
async function must(api, method, path, options, expected) {
  const res = await api(method, path, options);
  const ok = expected ? expected.includes(res.status) : res.status >= 200 && res.status <= 299;
  if (!ok) throw new Error(`${method} ${path} answered ${res.status}:\n${res.text}`);
  return res;
}

/**
 * Creates the demo workspace through the API: operator → workspace with owner token → initiator
 * agent with typed parameters → widget channel → widget key. The server derives the workspace
 * slug and adds a suffix if an earlier seed already took it.
 * @param {Api} api
 * @param {string} operatorToken the Worker's OPERATOR_TOKEN
 * @returns {Promise<DemoWorkspace>}
 * @throws {Error} when a call answers an unexpected status
 */
export async function seedDemoWorkspace(api, operatorToken) {
  const { json: created } = await must(api, "POST", "/v1/operator/workspaces", {
    token: operatorToken,
    body: { name: "Demo workspace", owner: { email: "owner@demo.example", name: "Demo Owner" } },
  });
  const token = created.memberToken;
  const { json: agent } = await must(api, "POST", "/v1/manage/agents", {
    token,
    body: {
      name: "Onboarding assistant",
      mode: "initiator",
      greeting: "Hi {{participant.name}}! Let's set up your {{parameters.plan}} plan.",
      instructions: "Help the person finish onboarding.",
      parameters: [
        {
          name: "plan",
          type: "string",
          required: true,
          description: "Plan the person signed up for",
        },
        { name: "tier", type: "string", options: ["free", "pro", "enterprise"] },
        { name: "balance", type: "number" },
        { name: "seats", type: "integer" },
        { name: "vip", type: "boolean" },
      ],
    },
  });
  const { json: channel } = await must(api, "POST", `/v1/manage/agents/${agent.id}/channels`, {
    token,
    body: { type: "widget", name: "Website widget" },
  });
  const { json: key } = await must(api, "POST", "/v1/manage/widget-keys", {
    token,
    body: { name: "Demo server key" },
  });
  return {
    workspaceId: created.workspace.id,
    workspaceSlug: created.workspace.slug,
    memberToken: token,
    agentId: agent.id,
    channelId: channel.id,
    widgetKey: key.key,
  };
}

/**
 * Sets the workspace secret WEBHOOK_SECRET, creates the "Order events" workflow (slug
 * `order-events`; if the slug is taken, that workflow gets the demo definition again) and starts
 * it. Safe to run again for the same workspace.
 * @param {Api} api
 * @param {string} memberToken an owner or admin token of the workspace
 * @param {string} webhookSecret the value senders put in the `x-webhook-secret` header
 * @returns {Promise<DemoWorkflow>}
 * @throws {Error} when a call answers an unexpected status
 */
export async function seedDemoWorkflow(api, memberToken, webhookSecret) {
  const token = memberToken;
  await must(
    api,
    "PUT",
    "/v1/manage/secrets/WEBHOOK_SECRET",
    { token, body: { value: webhookSecret } },
    [204],
  );
  const created = await must(
    api,
    "POST",
    "/v1/manage/workflows",
    { token, body: DEMO_WORKFLOW },
    [201, 409],
  );
  let workflowId;
  if (created.status === 201) {
    workflowId = created.json.id;
  } else {
    if (created.json?.error?.code !== "slug_taken")
      throw new Error(`POST /v1/manage/workflows answered 409:\n${created.text}`);
    // The list comes a page at a time (docs/api/README.md#lists-and-paging); 100 pages of 100.
    let existing;
    let cursor = null;
    for (let read = 0; read < 100 && !existing; read++) {
      const query = `?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const { json: page } = await must(api, "GET", `/v1/manage/workflows${query}`, { token });
      existing = page.data.find((w) => w.slug === DEMO_WORKFLOW_SLUG);
      cursor = page.nextCursor;
      if (cursor === null) break;
    }
    if (!existing)
      throw new Error(`Slug ${DEMO_WORKFLOW_SLUG} is taken but no workflow in the list has it.`);
    workflowId = existing.id;
    await must(api, "PUT", `/v1/manage/workflows/${workflowId}`, { token, body: DEMO_WORKFLOW });
  }
  const { json: started } = await must(api, "POST", `/v1/manage/workflows/${workflowId}/start`, {
    token,
  });
  const webhookUrl = started.webhookUrls?.webhook_1;
  if (started.status !== "running" || !webhookUrl)
    throw new Error(`Starting workflow ${workflowId} gave:\n${JSON.stringify(started)}`);
  return { workflowId, webhookUrl, webhookSecret };
}

/**
 * The banner `npm run dev` prints: base URL, demo credentials, and curl examples for the launch
 * API and the demo workflow's webhook.
 * @param {string} base the server's base URL, e.g. `http://127.0.0.1:8787`
 * @param {DemoWorkspace & DemoWorkflow} demo
 * @param {boolean} reused whether the demo came from an earlier run
 * @returns {string}
 */
export function demoBanner(base, demo, reused, chatUrl, signInUrl) {
  const auth = `-H "Authorization: Bearer ${demo.widgetKey}"`;
  const owner = `-H "Authorization: Bearer ${demo.memberToken}"`;
  const launch = JSON.stringify({
    flowId: demo.agentId,
    channelId: demo.channelId,
    parameters: { plan: "pro", tier: "pro", seats: 3, vip: true },
    participant: { name: "Ada Lovelace", externalId: "cus_123" },
  });
  return `
================ agent-edge dev (${reused ? "demo reused" : "demo seeded"}) ================
Base URL        ${base}
API docs        ${base}/docs   (OpenAPI: ${base}/openapi.json)
Workspace       ${demo.workspaceId}  (slug: ${demo.workspaceSlug})
Owner token     ${demo.memberToken}
Agent (flowId)  ${demo.agentId}
Channel         ${demo.channelId}
Widget key      ${demo.widgetKey}
Workflow        ${demo.workflowId}  ("Order events", running)
Webhook URL     ${demo.webhookUrl}
Webhook secret  ${demo.webhookSecret}  (workspace secret WEBHOOK_SECRET)

Create a link:
  curl -s -X POST ${base}/v1/widget/launches ${auth} -H "Content-Type: application/json" -d '${launch}'
Look it up (id from the create response):
  curl -s ${base}/v1/widget/launches/<lnk_id> ${auth}
Revoke it:
  curl -s -o /dev/null -w "%{http_code}\\n" -X DELETE ${base}/v1/widget/launches/<lnk_id> ${auth}
The create response's \`url\` opens the hosted chat page; its \`embedHtml\` shows the widget on any page.
${chatUrl ? `A fresh link for Ada, ready to open in a browser:\n  ${chatUrl}\n` : ""}${signInUrl ? `Sign in as the demo owner (one use, 15 minutes):\n  ${signInUrl}\n` : ""}
Call the demo workflow's webhook:
  curl -s -X POST ${demo.webhookUrl} -H "Content-Type: application/json" -H "x-webhook-secret: ${demo.webhookSecret}" -d '{"orderId":1042}'
It answers {"ok":true,"orderId":1042,"message":"Order 1042 received"}; a wrong secret answers {"ok":false,...}.
List its executions:
  curl -s ${base}/v1/manage/workflows/${demo.workflowId}/executions ${owner}

These local-only credentials are kept in .dev-demo.json (git-ignored).
=================================================================================
`;
}
