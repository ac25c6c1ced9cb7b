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
 * A fresh link of the demo agent for Ada (`externalId` cus_123), so the chat page can be tried at
 * once; its id is `.dev-demo.env`'s LINK_ID.
 * @param {Api} api
 * @param {DemoWorkspace} demo
 * @returns {Promise<{ id: string, url: string } | null>} null when creating it was refused
 */
export async function createDemoLink(api, demo) {
  const created = await api("POST", "/v1/widget/launches", {
    token: demo.widgetKey,
    body: {
      flowId: demo.agentId,
      channelId: demo.channelId,
      parameters: { plan: "pro" },
      participant: { name: "Ada", externalId: "cus_123" },
    },
  });
  return created.status === 201 ? { id: created.json.id, url: created.json.url } : null;
}

/** The demo webhook call of the banner: its body and what the accepted branch answers. */
export const DEMO_ORDER = { orderId: 1042 };

/**
 * Calls the demo workflow's webhook as the banner prints it (the stored secret in
 * `x-webhook-secret`). `ok` when it answers 200 with the accepted branch (`{"ok":true,…}`): a
 * changed WEBHOOK_SECRET, a stopped or edited workflow all make it false.
 * @param {Api} api
 * @param {DemoWorkflow} demo
 * @returns {Promise<{ ok: boolean, status: number, text: string }>}
 */
export async function probeDemoWebhook(api, demo) {
  const path = new URL(demo.webhookUrl).pathname;
  const res = await api("POST", path, {
    body: DEMO_ORDER,
    headers: { "x-webhook-secret": demo.webhookSecret },
  });
  return { ok: res.status === 200 && res.json?.ok === true, status: res.status, text: res.text };
}

/**
 * Makes sure the demo workflow answers the banner's call, as `npm run dev` does at every start:
 * when the workflow is gone, stopped or changed, or the workspace secret WEBHOOK_SECRET no longer
 * holds the stored value (someone followed an example that set it), the secret and the workflow
 * are seeded again with the stored value, and the call is tried once more.
 * @param {Api} api
 * @param {string} memberToken an owner or admin token of the workspace
 * @param {DemoWorkflow} demo what an earlier seed stored
 * @returns {Promise<{ workflow: DemoWorkflow, reseeded: string | null }>} `reseeded`: why it was
 *   seeded again, or null when it answered as stored
 * @throws {Error} when seeding fails or the webhook still refuses afterwards
 */
export async function ensureDemoWorkflow(api, memberToken, demo) {
  const read = await api("GET", `/v1/manage/workflows/${demo.workflowId}`, { token: memberToken });
  let reseeded = null;
  if (read.status !== 200 || read.json?.status !== "running") {
    reseeded = "the demo workflow was missing or stopped";
  } else {
    // The URL follows the request's origin (another PORT gives another URL).
    const current = { ...demo, webhookUrl: read.json.webhookUrls?.webhook_1 ?? demo.webhookUrl };
    const probe = await probeDemoWebhook(api, current);
    if (probe.ok) return { workflow: current, reseeded: null };
    reseeded = `its webhook answered ${probe.status} ${probe.text.slice(0, 200)}`;
  }
  const workflow = await seedDemoWorkflow(api, memberToken, demo.webhookSecret);
  const again = await probeDemoWebhook(api, workflow);
  if (!again.ok)
    throw new Error(
      `The demo webhook still refuses after seeding again: ${again.status} ${again.text}`,
    );
  return { workflow, reseeded };
}
