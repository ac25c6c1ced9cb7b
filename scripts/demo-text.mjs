// What `npm run dev` hands the developer about its demo (scripts/demo-seed.mjs seeds it): the
// banner it prints and the `.dev-demo.env` the README's commands start from. No Node imports, like
// demo-seed.mjs: test/platform/dev-demo.test.ts loads it in workerd.

/**
 * @typedef {import("./demo-seed.mjs").DemoWorkspace} DemoWorkspace
 * @typedef {import("./demo-seed.mjs").DemoWorkflow} DemoWorkflow
 * @typedef {import("./demo-payment.mjs").PaymentDemo} PaymentDemo
 */

/** `value` as one shell word in single quotes. */
const shellWord = (value) => `'${String(value).replaceAll("'", "'\\''")}'`;

/**
 * The text of `.dev-demo.env`: `export NAME='value'` lines for what the README's and docs/' shell
 * examples use (`source .dev-demo.env`), written by `npm run dev` and by the doc tests
 * (scripts/doc-test.mjs) for their own server.
 * @param {string} base the server's base URL
 * @param {DemoWorkspace & DemoWorkflow & Partial<PaymentDemo>} demo
 * @param {{ operatorToken?: string, linkId?: string | null }} [extra] the Worker's OPERATOR_TOKEN
 *   (docs/operations.md's first workspace) and a link of the demo agent
 * @returns {string}
 */
export function demoEnv(base, demo, extra = {}) {
  const vars = {
    BASE_URL: base,
    OPERATOR_TOKEN: extra.operatorToken,
    OWNER_TOKEN: demo.memberToken,
    WIDGET_KEY: demo.widgetKey,
    WORKSPACE_ID: demo.workspaceId,
    WORKSPACE_SLUG: demo.workspaceSlug,
    FLOW_ID: demo.agentId,
    CHANNEL_ID: demo.channelId,
    LINK_ID: extra.linkId ?? undefined,
    WORKFLOW_ID: demo.workflowId,
    WEBHOOK_URL: demo.webhookUrl,
    DEMO_WEBHOOK_SECRET: demo.webhookSecret,
    BILLING_FLOW_ID: demo.billingAgentId,
    PAYMENT_WORKFLOW_ID: demo.paymentWorkflowId,
    PAYMENT_WEBHOOK_URL: demo.paymentWebhookUrl,
    STRIPE_WEBHOOK_SECRET: demo.stripeSecret,
    MAILER_URL: demo.mailerUrl,
  };
  const lines = [
    "# Written by `npm run dev` at every start: the local demo's credentials (git-ignored).",
    "# `source .dev-demo.env` sets what the README's and docs/' commands use.",
  ];
  for (const [name, value] of Object.entries(vars))
    if (value !== undefined) lines.push(`export ${name}=${shellWord(value)}`);
  return `${lines.join("\n")}\n`;
}

/** The banner's lines about the "Payment failed" workflow (README "A workflow that reaches the person"). */
function paymentLines(demo) {
  return `
"Payment failed" workflow ${demo.paymentWorkflowId}: a Stripe event opens a chat with the customer.
Send it a signed invoice.payment_failed event (\`source .dev-demo.env\` first), then open the
link the stand-in mailer prints here ([mailer] lines) and answer the question in the chat:
  body='{"id":"evt_'$RANDOM'","type":"invoice.payment_failed","data":{"object":{"id":"in_1042","customer":"cus_123","customer_name":"Ada","customer_email":"ada@demo.example","amount_due":4900,"currency":"usd","hosted_invoice_url":"https://invoice.stripe.com/i/demo"}}}'
  t=$(date +%s); sig=$(printf '%s' "$t.$body" | openssl dgst -sha256 -hmac "$STRIPE_WEBHOOK_SECRET" | sed 's/^.* //')
  curl -s -X POST "$PAYMENT_WEBHOOK_URL" -H "Stripe-Signature: t=$t,v1=$sig" -H "Content-Type: application/json" -d "$body"
`;
}

/**
 * The banner `npm run dev` prints: base URL, demo credentials, and curl examples for the launch
 * API and the demo workflow's webhook.
 * @param {string} base the server's base URL, e.g. `http://127.0.0.1:8787`
 * @param {DemoWorkspace & DemoWorkflow & Partial<PaymentDemo>} demo
 * @param {boolean} reused whether the demo came from an earlier run
 * @param {string | null} [chatUrl] a fresh link's `url`, ready to open
 * @param {string | null} [signInUrl] a one-time sign-in link for the demo owner
 * @param {string | null} [reseeded] why the demo workflow was seeded again at this start
 * @returns {string}
 */
export function demoBanner(base, demo, reused, chatUrl, signInUrl, reseeded) {
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
${reseeded ? `                Seeded again at this start: ${reseeded}.\n` : ""}
In a shell, \`source .dev-demo.env\` sets BASE_URL, WIDGET_KEY, OWNER_TOKEN, FLOW_ID, CHANNEL_ID,
LINK_ID, WORKFLOW_ID, WEBHOOK_URL, … for the README's commands.

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
${demo.paymentWebhookUrl ? paymentLines(demo) : ""}
These local-only credentials are kept in .dev-demo.json and .dev-demo.env (git-ignored).
=================================================================================
`;
}
