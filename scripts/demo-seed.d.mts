/** Types of scripts/demo-seed.mjs for the TypeScript tests that import it. */

/** Calls the service's HTTP API; `json` is the parsed body when the answer is JSON. */
export type Api = (
  method: string,
  path: string,
  options?: { token?: string; body?: unknown; headers?: Record<string, string> },
  // biome-ignore lint/suspicious/noExplicitAny: any JSON answer, like scripts/dev.mjs's `api`.
) => Promise<{ status: number; json: any; text: string }>;

export type DemoWorkspace = {
  workspaceId: string;
  workspaceSlug: string;
  memberToken: string;
  agentId: string;
  channelId: string;
  widgetKey: string;
};

export type DemoWorkflow = { workflowId: string; webhookUrl: string; webhookSecret: string };

export declare const DEMO_WORKFLOW_SLUG: "order-events";

/** Creates the demo workspace (owner token, agent, widget channel, widget key) through the API. */
export declare function seedDemoWorkspace(api: Api, operatorToken: string): Promise<DemoWorkspace>;

/** Sets WEBHOOK_SECRET, creates (or reuses) the "order-events" workflow and starts it. */
export declare function seedDemoWorkflow(
  api: Api,
  memberToken: string,
  webhookSecret: string,
): Promise<DemoWorkflow>;

/** A fresh link of the demo agent for Ada; null when creating it was refused. */
export declare function createDemoLink(
  api: Api,
  demo: DemoWorkspace,
): Promise<{ id: string; url: string } | null>;

/** The banner's webhook body: `{ orderId: 1042 }`. */
export declare const DEMO_ORDER: { orderId: number };

/** Calls the demo webhook with the stored secret; `ok` when it answers `{"ok":true,…}`. */
export declare function probeDemoWebhook(
  api: Api,
  demo: DemoWorkflow,
): Promise<{ ok: boolean; status: number; text: string }>;

/** Seeds the demo workflow and WEBHOOK_SECRET again when the banner's call would not answer ok. */
export declare function ensureDemoWorkflow(
  api: Api,
  memberToken: string,
  demo: DemoWorkflow,
): Promise<{ workflow: DemoWorkflow; reseeded: string | null }>;
