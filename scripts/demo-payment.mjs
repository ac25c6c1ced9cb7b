// The second demo workflow of `npm run dev`, "Payment failed" (README "A workflow that reaches the
// person"), seeded through the HTTP API only: a Stripe-verified webhook creates a personal link to
// a billing agent with the invoice as parameters, mails the link (a stand-in mailer in
// development), asks the person in the chat whether to update their card and answers by what they
// chose. No Node imports: the workerd tests load this module too.

/** Slug of the demo workflow; its webhook URL ends in `/<workspace slug>/payment-failed/webhook_1`. */
export const PAYMENT_WORKFLOW_SLUG = "payment-failed";

/**
 * What {@link seedPaymentWorkflow} creates.
 * @typedef {{ billingAgentId: string, billingChannelId: string, paymentWorkflowId: string,
 *   paymentWebhookUrl: string, stripeSecret: string }} PaymentDemo
 */

/** The billing agent: it opens the chat itself, about the invoice its link carries. */
const BILLING_AGENT = {
  name: "Billing assistant",
  mode: "initiator",
  greeting:
    "Hi {{participant.name}}, this is about invoice {{parameters.invoiceId}}: your last payment did not go through.",
  instructions: "Help the person pay the invoice their link is about.",
  parameters: [
    { name: "invoiceId", type: "string", required: true, description: "The Stripe invoice" },
    { name: "amountDue", type: "integer", description: "In the currency's smallest unit" },
    { name: "currency", type: "string" },
  ],
  // After each chat: a summary and whether the person chose to update their card (README story).
  analysis: {
    summary: true,
    fields: [
      {
        name: "cardUpdate",
        type: "string",
        description: "What the person chose about their card",
        options: ["update", "later", "unclear"],
      },
    ],
  },
};

/** The Stripe event's invoice, as later nodes read it. */
const INVOICE = "webhook_1.body.data.object";

/**
 * The workflow: webhook (Stripe preset) → create_link → http_request to the mailer → ask_person
 * → condition on the answer → send_message for each answer.
 * @param {string} agentId the billing agent
 * @param {string} channelId its widget channel
 */
export function paymentWorkflow(agentId, channelId) {
  return {
    name: "Payment failed",
    slug: PAYMENT_WORKFLOW_SLUG,
    nodes: [
      {
        type: "webhook",
        responseMode: "immediate",
        verify: { preset: "stripe", secret: "{{secrets.STRIPE_WEBHOOK_SECRET}}" },
      },
      {
        key: "link",
        name: "Open a chat",
        type: "create_link",
        flowId: agentId,
        channelId,
        parameters: {
          invoiceId: `{{${INVOICE}.id}}`,
          amountDue: `{{${INVOICE}.amount_due}}`,
          currency: `{{${INVOICE}.currency}}`,
        },
        participant: {
          name: `{{${INVOICE}.customer_name}}`,
          externalId: `{{${INVOICE}.customer}}`,
        },
        metadata: { stripeEvent: "{{webhook_1.body.id}}" },
        expiresInSeconds: 604_800,
      },
      {
        key: "mail",
        name: "Mail the link",
        type: "http_request",
        method: "POST",
        url: "{{secrets.MAILER_URL}}",
        body: {
          to: `{{${INVOICE}.customer_email}}`,
          subject: "Your payment did not go through",
          text: "Open your personal chat to sort it out: {{link.url}}",
        },
      },
      {
        key: "ask",
        name: "Ask to update the card",
        type: "ask_person",
        linkId: "{{link.id}}",
        question: "Update your card now?",
        options: [
          { label: "Yes, update my card", value: "update" },
          { label: "Not now", value: "later" },
        ],
        timeoutSeconds: 86_400,
      },
      {
        key: "chose",
        name: "Chose update?",
        type: "condition",
        left: "{{ask.answer}}",
        operator: "equals",
        right: "update",
      },
      {
        key: "update",
        name: "Send the card steps",
        type: "send_message",
        linkId: "{{link.id}}",
        text: `Thanks! Update your card on [your invoice page]({{${INVOICE}.hosted_invoice_url}}) and we will retry the payment at once.`,
      },
      {
        key: "later",
        name: "Send the retry note",
        type: "send_message",
        linkId: "{{link.id}}",
        text: "No problem: we will try the card again in three days.",
      },
    ],
    connections: [
      { from: "webhook_1", to: "link" },
      { from: "link", to: "mail" },
      { from: "mail", to: "ask" },
      { from: "ask", to: "chose", branch: "answered" },
      { from: "chose", to: "update", branch: "true" },
      { from: "chose", to: "later", branch: "false" },
    ],
  };
}

/**
 * A Stripe `invoice.payment_failed` event for Ada (`cus_123`), its id `evt_<suffix>`.
 * @param {string} suffix makes the event id unique (Stripe's deliveries are deduplicated by id)
 */
export function paymentFailedEvent(suffix) {
  return {
    id: `evt_${suffix}`,
    type: "invoice.payment_failed",
    data: {
      object: {
        id: "in_1042",
        customer: "cus_123",
        customer_name: "Ada",
        customer_email: "ada@demo.example",
        amount_due: 4900,
        currency: "usd",
        hosted_invoice_url: "https://invoice.stripe.com/i/demo_in_1042",
      },
    },
  };
}

/**
 * The `Stripe-Signature` header of `body` as Stripe signs it: `t=<s>,v1=<hex HMAC-SHA256 of
 * "t.body" under the secret's text>`.
 * @param {string} secret the endpoint's signing secret (`whsec_…`)
 * @param {string} body the exact body sent
 * @param {number} [seconds] the timestamp, Unix seconds (default now)
 */
export async function stripeSignature(secret, body, seconds = Math.floor(Date.now() / 1000)) {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(`${seconds}.${body}`));
  const hex = [...new Uint8Array(mac)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `t=${seconds},v1=${hex}`;
}

/**
 * Calls `api` and throws unless the status is one of `expected` (default: any 2xx).
 * @param {import("./demo-seed.mjs").Api} api
 */
async function must(api, method, path, options, expected) {
  const res = await api(method, path, options);
  const ok = expected ? expected.includes(res.status) : res.status >= 200 && res.status <= 299;
  if (!ok) throw new Error(`${method} ${path} answered ${res.status}:\n${res.text}`);
  return res;
}

/**
 * Seeds (or seeds again) the "Payment failed" demo: the billing agent and its widget channel when
 * `known` lacks them or they are gone, the workspace secrets STRIPE_WEBHOOK_SECRET and MAILER_URL,
 * and the workflow (created, or its definition put again), started. Safe to run at every start.
 * @param {import("./demo-seed.mjs").Api} api
 * @param {string} token an owner or admin token of the demo workspace
 * @param {{ mailerUrl: string, stripeSecret: string, known?: Partial<PaymentDemo> }} options
 * @returns {Promise<PaymentDemo>}
 * @throws {Error} when a call answers an unexpected status
 */
export async function seedPaymentWorkflow(api, token, { mailerUrl, stripeSecret, known = {} }) {
  let agentId = known.billingAgentId;
  let channelId = known.billingChannelId;
  const agent = agentId ? await api("GET", `/v1/manage/agents/${agentId}`, { token }) : null;
  if (agent?.status !== 200) {
    agentId = (await must(api, "POST", "/v1/manage/agents", { token, body: BILLING_AGENT })).json
      .id;
    channelId = undefined;
  }
  if (!channelId) {
    const path = `/v1/manage/agents/${agentId}/channels`;
    const body = { type: "widget", name: "Billing chat" };
    channelId = (await must(api, "POST", path, { token, body })).json.id;
  }
  for (const [name, value] of [
    ["STRIPE_WEBHOOK_SECRET", stripeSecret],
    ["MAILER_URL", mailerUrl],
  ]) {
    await must(api, "PUT", `/v1/manage/secrets/${name}`, { token, body: { value } }, [204]);
  }
  const definition = paymentWorkflow(agentId, channelId);
  let workflowId = known.paymentWorkflowId;
  const put = workflowId
    ? await api("PUT", `/v1/manage/workflows/${workflowId}`, { token, body: definition })
    : null;
  if (put?.status !== 200) {
    workflowId = (await must(api, "POST", "/v1/manage/workflows", { token, body: definition })).json
      .id;
  }
  const { json: started } = await must(api, "POST", `/v1/manage/workflows/${workflowId}/start`, {
    token,
  });
  const paymentWebhookUrl = started.webhookUrls?.webhook_1;
  if (!paymentWebhookUrl) throw new Error(`Starting ${workflowId} gave ${JSON.stringify(started)}`);
  return {
    billingAgentId: agentId,
    billingChannelId: channelId,
    paymentWorkflowId: workflowId,
    paymentWebhookUrl,
    stripeSecret,
  };
}
