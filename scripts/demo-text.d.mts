/** Types of scripts/demo-text.mjs for the TypeScript tests that import it. */
import type { PaymentDemo } from "./demo-payment.mjs";
import type { DemoWorkflow, DemoWorkspace } from "./demo-seed.mjs";

/** The banner `npm run dev` prints, with curl examples for the launch API and the webhook. */
export declare function demoBanner(
  base: string,
  demo: DemoWorkspace & DemoWorkflow & Partial<PaymentDemo>,
  reused: boolean,
  /** A link's `url` to print, ready to open (optional). */
  chatUrl?: string | null,
  signInUrl?: string | null,
  /** Why the demo workflow was seeded again at this start. */
  reseeded?: string | null,
): string;

/** The text of `.dev-demo.env`: `export NAME='value'` lines for the docs' shell examples. */
export declare function demoEnv(
  base: string,
  demo: DemoWorkspace & DemoWorkflow & Partial<PaymentDemo>,
  extra?: { operatorToken?: string; linkId?: string | null },
): string;
