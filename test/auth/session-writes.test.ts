/**
 * The session cookie on every change of the management API (docs/dashboard.md#sign-in), read
 * from `/openapi.json` so a new route is covered the day it is added: without the dashboard's
 * headers, or from another site, even an Owner's cookie changes nothing (403 cross_site_request);
 * a Member's cookie with them changes nothing either (403 insufficient_scope), except the
 * member's own sign-in links, sessions, passkeys and previews.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call, expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import { createLaunch } from "../helpers/chat";
import { DASHBOARD_HEADERS, sessionCookie, withSession } from "../helpers/session";
import { createWorkflow, putSecret } from "../helpers/workflows";

type Doc = { paths: Record<string, Record<string, { security?: Record<string, unknown>[] }>> };

/** A member's own business, open to every role (as in test/auth/matrix.test.ts). */
const SELF_SERVICE = new Set([
  "POST /v1/manage/sign-in-links",
  "DELETE /v1/manage/sessions",
  "POST /v1/manage/passkeys/options",
  "POST /v1/manage/passkeys",
  "DELETE /v1/manage/passkeys/{id}",
  "POST /v1/manage/agents/{id}/channels/{channelId}/preview-link",
]);

let ws: Workspace;
/** Every state-changing operation behind a member token, as `METHOD /path/with/ids`. */
let writes: { operation: string; method: string; path: string }[] = [];

/** What the workspace holds, to compare before and after the refused calls. */
async function snapshot(): Promise<string> {
  const lists = ["agents", "widget-keys", "members", "secrets", "workflows", "links"];
  const answers = await Promise.all(
    lists.map(async (list) =>
      expectJson(await call("GET", `/v1/manage/${list}`, { token: ws.ownerToken }), 200),
    ),
  );
  return JSON.stringify(answers);
}

beforeAll(async () => {
  ws = await seedWorkspace();
  const link = await createLaunch(ws);
  await putSecret(ws, "SESSION_MATRIX", "value");
  const flow = await createWorkflow(ws, { nodes: [{ type: "webhook" }] });
  const ids: Record<string, string> = {
    id: link.id,
    name: "SESSION_MATRIX",
    channelId: ws.channelId,
    executionId: "exe_x",
  };
  const document = await expectJson<Doc>(await call("GET", "/openapi.json"), 200);
  writes = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, operation]) => {
      const scheme = Object.keys(operation.security?.[0] ?? {})[0];
      if (scheme !== "memberToken" || method === "get") return [];
      const upper = method.toUpperCase();
      const idFor = (name: string) =>
        name === "id" && path.startsWith("/v1/manage/workflows/") ? flow.id : ids[name];
      const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => idFor(name) ?? "x");
      return [{ operation: `${upper} ${path}`, method: upper, path: filled }];
    }),
  );
  expect(writes.length).toBeGreaterThan(15);
});

describe("the session cookie on every change", () => {
  it("refuses an Owner's cookie without the dashboard's headers or from another site", async () => {
    const cookie = await sessionCookie(ws.ownerToken);
    const before = await snapshot();
    const cases: [string, Record<string, string>][] = [
      ["no X-Requested-With", { origin: DASHBOARD_HEADERS.origin }],
      ["another origin", { ...DASHBOARD_HEADERS, origin: "https://evil.test" }],
      ["a cross-site fetch", { ...DASHBOARD_HEADERS, "sec-fetch-site": "cross-site" }],
    ];
    const wrong: string[] = [];
    for (const { operation, method, path } of writes) {
      for (const [what, headers] of cases) {
        const answer = await withSession(cookie, method, path, { body: {}, headers });
        const code = (await answer.json<{ error?: { code?: string } }>()).error?.code;
        if (answer.status !== 403 || code !== "cross_site_request") {
          wrong.push(`${operation} [${what}] ${answer.status} ${code}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(await snapshot()).toBe(before);
    // The same cookie with the dashboard's headers does change things.
    const made = await withSession(cookie, "POST", "/v1/manage/widget-keys", {
      body: { name: "from the dashboard" },
      headers: DASHBOARD_HEADERS,
    });
    expect(made.status).toBe(201);
  });

  it("lets a Member's cookie change nothing but its own sign-in, sessions and passkeys", async () => {
    const invited = await expectJson<{ memberToken: string }>(
      await call("POST", "/v1/manage/members", {
        token: ws.ownerToken,
        body: { email: `m-${crypto.randomUUID()}@example.test`, name: "Mo", role: "member" },
      }),
      201,
    );
    const cookie = await sessionCookie(invited.memberToken);
    const before = await snapshot();
    const wrong: string[] = [];
    for (const { operation, method, path } of writes) {
      if (SELF_SERVICE.has(operation)) continue;
      const answer = await withSession(cookie, method, path, {
        body: {},
        headers: DASHBOARD_HEADERS,
      });
      const code = (await answer.json<{ error?: { code?: string } }>()).error?.code;
      if (answer.status !== 403 || code !== "insufficient_scope") {
        wrong.push(`${operation} ${answer.status} ${code}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await snapshot()).toBe(before);
    // Reading is what a member does.
    expect((await withSession(cookie, "GET", "/v1/manage/agents")).status).toBe(200);
  });
});
