/** Types of scripts/demo-payment.mjs for the TypeScript tests that import it. */
import type { Api } from "./demo-seed.mjs";

export type PaymentDemo = {
  billingAgentId: string;
  billingChannelId: string;
  paymentWorkflowId: string;
  paymentWebhookUrl: string;
  stripeSecret: string;
};

export declare const PAYMENT_WORKFLOW_SLUG: "payment-failed";

/** The "Payment failed" workflow definition for the billing agent and its channel. */
export declare function paymentWorkflow(
  agentId: string,
  channelId: string,
): { name: string; slug: string; nodes: Record<string, unknown>[]; connections: unknown[] };

/** A Stripe `invoice.payment_failed` event for Ada, its id `evt_<suffix>`. */
export declare function paymentFailedEvent(suffix: string): {
  id: string;
  type: "invoice.payment_failed";
  data: { object: Record<string, string | number> };
};

/** The `Stripe-Signature` header Stripe would send with `body`. */
export declare function stripeSignature(
  secret: string,
  body: string,
  seconds?: number,
): Promise<string>;

/** Seeds (or seeds again) the billing agent, its channel, the secrets and the workflow, started. */
export declare function seedPaymentWorkflow(
  api: Api,
  token: string,
  options: { mailerUrl: string; stripeSecret: string; known?: Partial<PaymentDemo> },
): Promise<PaymentDemo>;
