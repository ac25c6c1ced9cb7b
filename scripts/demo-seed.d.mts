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

/** The banner `npm run dev` prints, with curl examples for the launch API and the webhook. */
export declare function demoBanner(
  base: string,
  demo: DemoWorkspace & DemoWorkflow,
  reused: boolean,
  /** A link's `url` to print, ready to open (optional). */
  chatUrl?: string | null,
): string;
