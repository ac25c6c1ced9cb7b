/**
 * Test helpers: call the Worker like a server would, and seed a workspace through the real API
 * (operator → owner token → agent with typed parameters → widget channel → widget key).
 */
import { exports } from "cloudflare:workers";

export const ORIGIN = "https://edge.test";
export const OPERATOR_TOKEN = "test-operator-token-of-32-characters";

type Json = Record<string, unknown>;

/** Sends a request to the Worker's default export. `body` objects are sent as JSON. */
export async function call(
  method: string,
  path: string,
  options: {
    token?: string;
    apiKey?: string;
    body?: unknown;
    headers?: Record<string, string>;
  } = {},
): Promise<Response> {
  const headers = new Headers(options.headers);
  if (options.token) headers.set("authorization", `Bearer ${options.token}`);
  if (options.apiKey) headers.set("x-api-key", options.apiKey);
  let body: BodyInit | undefined;
  if (options.body !== undefined) {
    if (typeof options.body === "string" || options.body instanceof ReadableStream) {
      body = options.body as BodyInit;
    } else {
      body = JSON.stringify(options.body);
      if (!headers.has("content-type")) headers.set("content-type", "application/json");
    }
  }
  return exports.default.fetch(new Request(`${ORIGIN}${path}`, { method, headers, body }));
}

/** Reads a JSON body and asserts the status, with the body in the failure message. */
export async function expectJson<T = Json>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  if (response.status !== status) {
    throw new Error(`expected ${status}, got ${response.status}: ${text}`);
  }
  return (text ? JSON.parse(text) : null) as T;
}

/** The `error.code` of an error response. */
export async function errorCode(response: Response): Promise<string> {
  return ((await response.json()) as { error: { code: string } }).error.code;
}

export const DEMO_PARAMETERS = [
  { name: "plan", type: "string", required: true },
  { name: "tier", type: "string", options: ["free", "pro", "enterprise"] },
  { name: "balance", type: "number" },
  { name: "seats", type: "integer" },
  { name: "vip", type: "boolean" },
] as const;

export type Workspace = {
  workspaceId: string;
  slug: string;
  ownerToken: string;
  ownerId: string;
  agentId: string;
  channelId: string;
  widgetKey: string;
  widgetKeyId: string;
};

let counter = 0;

/** Creates a fresh workspace with an initiator agent, a widget channel and an unrestricted key. */
export async function seedWorkspace(): Promise<Workspace> {
  counter += 1;
  const created = await expectJson<{
    workspace: { id: string; slug: string };
    member: { id: string };
    memberToken: string;
  }>(
    await call("POST", "/v1/operator/workspaces", {
      token: OPERATOR_TOKEN,
      body: {
        name: `Test ${counter}`,
        owner: { email: `owner${counter}@example.com`, name: "Olga Owner" },
      },
    }),
    201,
  );
  const ownerToken = created.memberToken;
  const agent = await expectJson<{ id: string }>(
    await call("POST", "/v1/manage/agents", {
      token: ownerToken,
      body: {
        name: "Onboarding",
        mode: "initiator",
        greeting: "Hi {{participant.name}}!",
        parameters: DEMO_PARAMETERS,
      },
    }),
    201,
  );
  const channel = await expectJson<{ id: string }>(
    await call("POST", `/v1/manage/agents/${agent.id}/channels`, {
      token: ownerToken,
      body: { type: "widget", name: "Website" },
    }),
    201,
  );
  const key = await expectJson<{ id: string; key: string }>(
    await call("POST", "/v1/manage/widget-keys", { token: ownerToken, body: { name: "server" } }),
    201,
  );
  return {
    workspaceId: created.workspace.id,
    slug: created.workspace.slug,
    ownerToken,
    ownerId: created.member.id,
    agentId: agent.id,
    channelId: channel.id,
    widgetKey: key.key,
    widgetKeyId: key.id,
  };
}

/** A valid create-link body for the seeded agent. */
export function launchBody(ws: Workspace, extra: Json = {}): Json {
  return { flowId: ws.agentId, channelId: ws.channelId, parameters: { plan: "basic" }, ...extra };
}

/** Creates a widget key of the workspace (`body`: `flowIds`, `expiresAt`, …). */
export async function createWidgetKey(
  ws: Workspace,
  body: Record<string, unknown> = {},
  token = ws.ownerToken,
): Promise<{ id: string; key: string }> {
  return expectJson(
    await call("POST", "/v1/manage/widget-keys", { token, body: { name: "k", ...body } }),
    201,
  );
}

/** Another agent of the workspace (a responder) and a widget key limited to it. */
export async function keyForAnotherAgent(ws: Workspace): Promise<{ agentId: string; key: string }> {
  const agent = await expectJson<{ id: string }>(
    await call("POST", "/v1/manage/agents", {
      token: ws.ownerToken,
      body: { name: "Other", mode: "responder" },
    }),
    201,
  );
  const { key } = await createWidgetKey(ws, { name: "limited", flowIds: [agent.id] });
  return { agentId: agent.id, key };
}

/** Polls `check` until it returns a value other than undefined (every 100 ms, up to `ms`). */
export async function eventually<T>(check: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
