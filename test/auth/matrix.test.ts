/**
 * The authentication matrix (docs/security.md#credentials): every authenticated operation of the
 * OpenAPI document, so a new route is covered the day it is added, against every kind of bad
 * credential: none, malformed, well-formed but never issued, revoked right after use, expired, a
 * member who was removed, the wrong kind of credential, another workspace's credential, and a
 * `member` on write routes. Each answer is the one envelope with the documented code.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";
import { generateChecksummedSecret } from "../../src/platform/crypto";
import {
  call,
  createWidgetKey,
  expectJson,
  OPERATOR_TOKEN,
  seedWorkspace,
  type Workspace,
} from "../helpers/api";
import { createLaunch } from "../helpers/chat";
import { createWorkflow, putSecret } from "../helpers/workflows";

type Operation = {
  method: string;
  path: string;
  scheme: "widgetKey" | "memberToken" | "operatorToken" | "resultToken";
};
type Doc = { paths: Record<string, Record<string, { security?: Record<string, unknown>[] }>> };

let operations: Operation[] = [];
let home: Workspace;
let other: Workspace;
/** Ids of `home`'s resources, by path parameter name. */
let ids: Record<string, string>;
/** A credential of each bad kind, by column. */
let bad: Record<string, { widgetKey: string | undefined; memberToken: string | undefined }>;
let memberOnly: string;

const WELL_FORMED: Record<string, unknown> = {
  "POST /v1/manage/agents/{id}/channels": { type: "widget", name: "c" },
  "PATCH /v1/manage/members/{id}": { role: "member" },
  "PUT /v1/manage/workflows/{id}": {
    name: "W",
    slug: "w",
    nodes: [{ type: "webhook" }],
    connections: [],
  },
  "POST /v1/manage/workflows/{id}/executions/replay": {
    status: "failed",
    since: "2026-01-01T00:00:00Z",
  },
};

const withIds = (path: string) =>
  path.replace(/\{([^}]+)\}/g, (_, name: string) => ids[name] ?? "x");
const bodyFor = (method: string) => (method === "GET" || method === "DELETE" ? undefined : {});

async function refusal(op: Operation, token: string | undefined) {
  const response = await call(op.method, withIds(op.path), { token, body: bodyFor(op.method) });
  const text = await response.text();
  const body = text ? (JSON.parse(text) as { error?: { code?: string; requestId?: string } }) : {};
  expect(body.error?.requestId, `${op.method} ${op.path}: ${text}`).toMatch(/^req_/);
  if (response.status === 401) {
    expect(response.headers.get("www-authenticate"), `${op.method} ${op.path}`).toBe(
      'Bearer realm="agent-edge"',
    );
  }
  return `${response.status} ${body.error?.code}`;
}

async function mintMember(
  ws: Workspace,
  role: "admin" | "member",
): Promise<{ id: string; token: string }> {
  const created = await expectJson<{ member: { id: string }; memberToken: string }>(
    await call("POST", "/v1/manage/members", {
      token: ws.ownerToken,
      body: { email: `${crypto.randomUUID()}@example.com`, name: "M", role },
    }),
    201,
  );
  return { id: created.member.id, token: created.memberToken };
}

beforeAll(async () => {
  const document = await expectJson<Doc>(await call("GET", "/openapi.json"), 200);
  operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, operation]) => {
      const scheme = Object.keys(operation.security?.[0] ?? {})[0];
      if (scheme === "widgetKeyHeader" || scheme === undefined) return [];
      return [{ method: method.toUpperCase(), path, scheme: scheme as Operation["scheme"] }];
    }),
  );
  [home, other] = [await seedWorkspace(), await seedWorkspace()];
  const link = await createLaunch(home);
  await putSecret(home, "MATRIX", "value");
  const flow = await createWorkflow(home, { nodes: [{ type: "webhook" }] });
  ids = { id: link.id, name: "MATRIX", executionId: "exe_x" };

  // Revoked right after use (the isolate has it cached), expired, and a removed member.
  const revoked = await createWidgetKey(home);
  const removed = await mintMember(home, "admin");
  await call("GET", `/v1/widget/launches/${link.id}`, { token: revoked.key });
  await call("GET", "/v1/manage/agents", { token: revoked.key });
  await call("GET", "/v1/manage/agents", { token: removed.token });
  await call("DELETE", `/v1/manage/widget-keys/${revoked.id}`, { token: home.ownerToken });
  await call("DELETE", `/v1/manage/members/${removed.id}`, { token: home.ownerToken });
  const expired = await createWidgetKey(home, {
    expiresAt: new Date(Date.now() + 60_000).toISOString(),
  });
  memberOnly = (await mintMember(home, "member")).token;
  bad = {
    none: { widgetKey: undefined, memberToken: undefined },
    malformed: { widgetKey: "wk_live_nonsense", memberToken: "mt_nonsense" },
    "never issued": {
      widgetKey: generateChecksummedSecret("wk_live_"),
      memberToken: generateChecksummedSecret("mt_"),
    },
    "revoked or removed": { widgetKey: revoked.key, memberToken: removed.token },
    expired: { widgetKey: expired.key, memberToken: undefined },
  };
  // Ids that exist, for the operations that name one of `home`'s resources.
  Object.assign(ids, { flowId: flow.id });
  expect(operations.length).toBeGreaterThanOrEqual(25);
  // The operator's routes are here too, the workspace's deletion among them.
  expect(operations.filter((op) => op.scheme === "operatorToken")).toEqual([
    { method: "POST", path: "/v1/operator/workspaces", scheme: "operatorToken" },
    { method: "DELETE", path: "/v1/operator/workspaces/{id}", scheme: "operatorToken" },
    { method: "POST", path: "/v1/operator/reseal", scheme: "operatorToken" },
    { method: "GET", path: "/v1/operator/reseal/{id}", scheme: "operatorToken" },
    { method: "GET", path: "/v1/operator/audit-log", scheme: "operatorToken" },
  ]);
  for (const prefix of ["/v1/widget/", "/v1/manage/", "/v1/operator/"]) {
    expect(
      operations.some((op) => op.path.startsWith(prefix)),
      prefix,
    ).toBe(true);
  }
});

describe("every authenticated operation", () => {
  it("refuses a missing, malformed, never issued, revoked, removed or expired credential: 401 invalid_key", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 120_000); // past the expired key's expiresAt
    try {
      const answers: string[] = [];
      for (const op of operations) {
        for (const [column, credential] of Object.entries(bad)) {
          const token = op.scheme === "memberToken" ? credential.memberToken : credential.widgetKey;
          if (column === "expired" && token === undefined) continue;
          answers.push(`${op.method} ${op.path} [${column}] ${await refusal(op, token)}`);
        }
      }
      expect(answers.filter((answer) => !answer.endsWith("401 invalid_key"))).toEqual([]);
      expect(answers.length).toBeGreaterThan(operations.length * 4);
    } finally {
      vi.useRealTimers();
    }
  });

  it("refuses the wrong kind of credential: 403 insufficient_scope for a live key or token, 401 for the operator's", async () => {
    const wrong: string[] = [];
    for (const op of operations) {
      const kinds: [string, string, string][] =
        op.scheme === "widgetKey"
          ? [
              ["member token", home.ownerToken, "403 insufficient_scope"],
              ["operator token", OPERATOR_TOKEN, "401 invalid_key"],
            ]
          : op.scheme === "memberToken"
            ? [
                ["widget key", home.widgetKey, "403 insufficient_scope"],
                ["operator token", OPERATOR_TOKEN, "401 invalid_key"],
              ]
            : [
                ["widget key", home.widgetKey, "401 invalid_key"],
                ["member token", home.ownerToken, "401 invalid_key"],
              ];
      // A widget key revoked right after use is no credential at all, on any route.
      kinds.push([
        "revoked widget key",
        bad["revoked or removed"]?.widgetKey as string,
        "401 invalid_key",
      ]);
      for (const [kind, token, expected] of kinds) {
        const answer = await refusal(op, token);
        if (answer !== expected)
          wrong.push(`${op.method} ${op.path} [${kind}] ${answer}, not ${expected}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("lets a member read but not write: 403 insufficient_scope on every write of the management API", async () => {
    // A member's own sign-in link, sign-out everywhere, passkeys and widget previews are its own
    // business (test/auth/sign-in.test.ts, test/agents/preview.test.ts).
    const selfService = new Set([
      "POST /v1/manage/sign-in-links",
      "DELETE /v1/manage/sessions",
      "POST /v1/manage/passkeys/options",
      "POST /v1/manage/passkeys",
      "DELETE /v1/manage/passkeys/{id}",
      "POST /v1/manage/agents/{id}/channels/{channelId}/preview-link",
    ]);
    const writes = operations.filter(
      (op) =>
        op.scheme === "memberToken" &&
        op.method !== "GET" &&
        !selfService.has(`${op.method} ${op.path}`),
    );
    expect(writes.length).toBeGreaterThan(10);
    const wrong: string[] = [];
    for (const op of writes) {
      const answer = await refusal(op, memberOnly);
      if (answer !== "403 insufficient_scope") wrong.push(`${op.method} ${op.path} ${answer}`);
    }
    expect(wrong).toEqual([]);
    const read = await call("GET", "/v1/manage/agents", { token: memberOnly });
    expect(read.status).toBe(200);
  });

  it("never shows or changes another workspace's resources: 404 not_found by id", async () => {
    const byId = operations.filter(
      (op) =>
        op.scheme !== "operatorToken" &&
        /\{(id|name)\}/.test(op.path) &&
        !op.path.endsWith("/{name}"),
    );
    const resources: Record<string, string> = {
      "/v1/widget/launches": ids.id as string,
      "/v1/manage/links": ids.id as string,
      "/v1/manage/agents": home.agentId,
      "/v1/manage/widget-keys": home.widgetKeyId,
      "/v1/manage/members": home.ownerId,
      "/v1/manage/workflows": ids.flowId as string,
    };
    const wrong: string[] = [];
    for (const op of byId) {
      const base = Object.keys(resources).find((prefix) => op.path.startsWith(`${prefix}/`));
      if (!base) continue;
      const path = op.path
        .replace("{id}", resources[base] as string)
        .replace("{executionId}", "exe_x")
        .replace("{requestId}", "whr_000000000000000000abcdef")
        .replace("{key}", "webhook_1");
      const token = op.scheme === "widgetKey" ? other.widgetKey : other.ownerToken;
      // Well-formed bodies, so the answer is about the resource, not the shape.
      const body = WELL_FORMED[`${op.method} ${op.path}`] ?? bodyFor(op.method);
      const response = await call(op.method, path, { token, body });
      const answer = `${response.status} ${(await response.json<{ error?: { code: string } }>()).error?.code}`;
      if (answer !== "404 not_found") wrong.push(`${op.method} ${path} ${answer}`);
    }
    expect(wrong).toEqual([]);
    // The secret of the same name in another workspace is not this one.
    const secret = await call("DELETE", "/v1/manage/secrets/MATRIX", { token: other.ownerToken });
    expect(secret.status).toBe(404);
    // Lists show only the caller's own workspace.
    const agents = await expectJson<{ data: { id: string }[] }>(
      await call("GET", "/v1/manage/agents", { token: other.ownerToken }),
      200,
    );
    expect(agents.data.map((agent) => agent.id)).not.toContain(home.agentId);
  });
});
