/**
 * Test helpers for workflows: create and start one through the management API, set secrets, and
 * call webhook URLs the way outside senders do.
 */
import { env, exports } from "cloudflare:workers";
import { call, expectJson, type Workspace } from "./api";

/** Base URL of the local echo server (test/helpers/echo-server.mjs) the http_request node calls. */
export const ECHO_URL = (env as unknown as { ECHO_URL: string }).ECHO_URL;

export type WorkflowView = {
  id: string;
  slug: string;
  status: "running" | "stopped";
  nodes: Record<string, unknown>[];
  connections: Record<string, unknown>[];
  webhookUrls: Record<string, string>;
  webhookTestUrls: Record<string, string>;
};

export type ExecutionView = {
  id: string;
  workflowId: string;
  status: "running" | "succeeded" | "failed";
  trigger: { key: string; type: string };
  nodes: {
    key: string;
    type: string;
    status: string;
    output?: unknown;
    error?: string;
    errorCode?: string;
    startedAt: string;
    finishedAt: string | null;
  }[];
  startedAt: string;
  finishedAt: string | null;
};

let counter = 0;

/** Creates a workflow (and starts it unless `start` is false); the slug is unique per call. */
export async function createWorkflow(
  ws: Workspace,
  definition: { nodes: unknown[]; connections?: unknown[]; concurrency?: object },
  options: { start?: boolean; slug?: string } = {},
): Promise<WorkflowView> {
  counter += 1;
  const created = await expectJson<WorkflowView>(
    await call("POST", "/v1/manage/workflows", {
      token: ws.ownerToken,
      body: {
        name: `Workflow ${counter}`,
        slug: options.slug ?? `flow-${counter}`,
        nodes: definition.nodes,
        connections: definition.connections ?? [],
        ...(definition.concurrency ? { concurrency: definition.concurrency } : {}),
      },
    }),
    201,
  );
  if (options.start === false) return created;
  return expectJson<WorkflowView>(
    await call("POST", `/v1/manage/workflows/${created.id}/start`, { token: ws.ownerToken }),
    200,
  );
}

/** Sets a workspace secret. */
export async function putSecret(ws: Workspace, name: string, value: string): Promise<void> {
  const response = await call("PUT", `/v1/manage/secrets/${name}`, {
    token: ws.ownerToken,
    body: { value },
  });
  if (response.status !== 204)
    throw new Error(`PUT secret: ${response.status} ${await response.text()}`);
}

/**
 * Sends a request to a webhook URL; `body` objects are sent as JSON. `redirect: "manual"` returns
 * a redirect as answered instead of following it.
 */
export function hook(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: BodyInit | object;
    redirect?: "follow" | "manual";
  } = {},
): Promise<Response> {
  const headers = new Headers(options.headers);
  let body: BodyInit | undefined;
  if (
    options.body === undefined ||
    typeof options.body === "string" ||
    options.body instanceof FormData ||
    options.body instanceof URLSearchParams ||
    options.body instanceof ReadableStream ||
    options.body instanceof Uint8Array
  ) {
    body = options.body as BodyInit | undefined;
  } else {
    body = JSON.stringify(options.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  return exports.default.fetch(
    new Request(url, {
      method: options.method ?? "POST",
      headers,
      body,
      redirect: options.redirect ?? "follow",
    }),
  );
}

/** One execution's record through the management API. */
export async function execution(
  ws: Workspace,
  workflowId: string,
  executionId: string,
): Promise<ExecutionView> {
  return expectJson<ExecutionView>(
    await call("GET", `/v1/manage/workflows/${workflowId}/executions/${executionId}`, {
      token: ws.ownerToken,
    }),
    200,
  );
}

/** The spec's own example (spec 5): a shared secret in a header, checked by a Condition node. */
export const SPEC_EXAMPLE = {
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
        note: "order {{webhook_1.body.orderId}}",
      },
    },
    { key: "refused", type: "set", fields: { ok: false, reason: "wrong secret" } },
  ],
  connections: [
    { from: "webhook_1", to: "check" },
    { from: "check", to: "accepted", branch: "true" },
    { from: "check", to: "refused", branch: "false" },
  ],
};

/** How many executions the workflow has recorded (up to a page of 20). */
export async function executionCount(ws: Workspace, workflowId: string): Promise<number> {
  const page = await expectJson<{ data: unknown[] }>(
    await call("GET", `/v1/manage/workflows/${workflowId}/executions`, { token: ws.ownerToken }),
    200,
  );
  return page.data.length;
}

/** `X-Hub-Signature-256` as GitHub makes it: `sha256=` + hex HMAC-SHA256 of the body. */
export async function githubSignature(secret: string, body: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(body)));
  return `sha256=${Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * Gates at the echo server (`/hold/<id>` answers once `/release/<id>` was called), named apart per
 * test file by `prefix`: `gate(name)` the id a workflow's http_request waits on, `hits(name)` how
 * many requests reached it, `release(name)` lets them through.
 */
export function echoGates(prefix: string) {
  const run = `${prefix}-${Date.now()}`;
  const gate = (name: string) => `${run}-${name}`;
  const hits = async (name: string) =>
    ((await (await fetch(`${ECHO_URL}/hits/${gate(name)}`)).json()) as { hits: number }).hits;
  const release = (name: string) => fetch(`${ECHO_URL}/release/${gate(name)}`);
  return { gate, hits, release };
}
