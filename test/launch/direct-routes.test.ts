/**
 * A link's look-up and revocation served by the Worker's entry directly (src/launch/direct-routes.ts)
 * answer as the app does, for every outcome: the same status, body and headers (the request id, the
 * RateLimit headers, Retry-After, WWW-Authenticate, the content type). Each case sends one request
 * to the direct path, with an app that fails the test if it is asked, and the same request to the
 * app, each with a widget key of its own whose calls so far were the same, so the counts agree.
 * Requests the direct path must leave to the app are checked to reach it untouched.
 */
import { evictDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { directLaunch } from "../../src/launch/direct-routes";
import { linkLedger } from "../../src/launch/ledger/client";
import type { AppBindings } from "../../src/platform/env";
import { hotApp } from "../../src/routes";
import {
  call,
  createWidgetKey,
  expectJson,
  keyForAnotherAgent,
  launchBody,
  ORIGIN,
  seedWorkspace,
  type Workspace,
} from "../helpers/api";

const bindings = env as unknown as AppBindings;

type Answer = { status: number; headers: Record<string, string>; body: string };

/** The answer as compared: a rate limit's seconds may tick over between the two calls. */
async function answer(response: Response): Promise<Answer> {
  const headers = Object.fromEntries(
    [...response.headers].map(([name, value]) => [
      name,
      name === "ratelimit" ? value.replace(/;t=\d+$/, ";t=<s>") : value,
    ]),
  );
  if (headers["retry-after"] !== undefined) headers["retry-after"] = "<s>";
  const body = (await response.text()).replace(/in \d+ s\./, "in <s> s.");
  return { status: response.status, headers, body };
}

function request(method: string, path: string, key: string, headers: Record<string, string> = {}) {
  return new Request(`${ORIGIN}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "x-request-id": "req_same", ...headers },
  });
}

const refuseApp = () => {
  throw new Error("the direct path handed the request to the app");
};

/** The direct path's answer to `make(directKey)` and the app's to `make(appKey)`. */
async function both(
  make: (key: string) => Request,
  keys: { direct: string; app: string },
  env: AppBindings = bindings,
): Promise<{ direct: Answer; app: Answer }> {
  const served = directLaunch(make(keys.direct), env, undefined, refuseApp);
  expect(served, "the direct path takes the request").not.toBeNull();
  const direct = await answer(await (served as Promise<Response>));
  const app = await answer(await hotApp.fetch(make(keys.app), env));
  return { direct, app };
}

async function twoKeys(ws: Workspace, body: Record<string, unknown> = {}) {
  return {
    direct: (await createWidgetKey(ws, body)).key,
    app: (await createWidgetKey(ws, body)).key,
  };
}

async function createLink(ws: Workspace): Promise<string> {
  const created = await expectJson<{ id: string }>(
    await call("POST", "/v1/widget/launches", { token: ws.widgetKey, body: launchBody(ws) }),
    201,
  );
  return created.id;
}

describe("the direct look-up and revocation answer as the app does", () => {
  it("for a look-up, a revocation, a repeat, an unknown link and another agent's link", async () => {
    const ws = await seedWorkspace();
    const keys = await twoKeys(ws);
    const id = await createLink(ws);
    const cases: Array<(key: string) => Request> = [
      (key) => request("GET", `/v1/widget/launches/${id}`, key),
      (key) => request("GET", "/v1/widget/launches/lnk_unknown", key),
      (key) => request("DELETE", "/v1/widget/launches/lnk_unknown", key),
      (key) => request("GET", `/v1/widget/launches/${id}`, key, { "x-request-id": "no spaces" }),
    ];
    for (const make of cases) {
      const { direct, app } = await both(make, keys);
      if (direct.headers["x-request-id"] !== "req_same") {
        // A caller's id that is not well-formed is replaced by a new one on both paths.
        expect(direct.headers["x-request-id"]).toMatch(/^req_[0-9a-f]{32}$/);
        expect(app.headers["x-request-id"]).toMatch(/^req_[0-9a-f]{32}$/);
        direct.headers["x-request-id"] = app.headers["x-request-id"] as string;
        direct.body = direct.body.replaceAll(/req_[0-9a-f]{32}/g, "<id>");
        app.body = app.body.replaceAll(/req_[0-9a-f]{32}/g, "<id>");
      }
      expect(direct).toEqual(app);
    }
    // Two links revoked, one by each path, then each again; the look-ups show them revoked.
    const revoked = { direct: await createLink(ws), app: await createLink(ws) };
    for (let i = 0; i < 2; i++) {
      const served = directLaunch(
        request("DELETE", `/v1/widget/launches/${revoked.direct}`, keys.direct),
        bindings,
        undefined,
        refuseApp,
      );
      const direct = await answer(await (served as Promise<Response>));
      const app = await answer(
        await hotApp.fetch(
          request("DELETE", `/v1/widget/launches/${revoked.app}`, keys.app),
          bindings,
        ),
      );
      expect(direct).toEqual(app);
      expect(direct.status).toBe(204);
    }
    const limited = await keyForAnotherAgent(ws);
    const other = await createWidgetKey(ws, { flowIds: [limited.agentId] });
    const forbidden = await both((key) => request("GET", `/v1/widget/launches/${id}`, key), {
      direct: limited.key,
      app: other.key,
    });
    expect(forbidden.direct).toEqual(forbidden.app);
    expect(forbidden.direct.status).toBe(403);
  });

  it("for a key over its rate limit (429) and a key revoked after the isolate cached it (401)", async () => {
    const ws = await seedWorkspace();
    const keys = await twoKeys(ws);
    const lookup = (key: string) => request("GET", "/v1/widget/launches/lnk_unknown", key);
    for (let i = 0; i < 120; i++) {
      for (const key of [keys.direct, keys.app]) await exportsFetch(lookup(key));
    }
    const limited = await both(lookup, keys);
    expect(limited.direct).toEqual(limited.app);
    expect(limited.direct.status).toBe(429);
    expect(limited.direct.headers["retry-after"]).toBe("<s>");

    const fresh = await createWidgetKey(ws);
    const second = await createWidgetKey(ws);
    for (const key of [fresh, second]) {
      expect((await exportsFetch(lookup(key.key))).status).toBe(404);
      const revoked = await call("DELETE", `/v1/manage/widget-keys/${key.id}`, {
        token: ws.ownerToken,
      });
      expect(revoked.status).toBe(204);
    }
    const refused = await both(lookup, { direct: fresh.key, app: second.key });
    expect(refused.direct).toEqual(refused.app);
    expect(refused.direct.status).toBe(401);
    expect(refused.direct.headers["www-authenticate"]).toBe('Bearer realm="agent-edge"');
  });

  it("for a key in x-api-key, and after the ledger restarted", async () => {
    const ws = await seedWorkspace();
    const keys = await twoKeys(ws);
    const id = await createLink(ws);
    await evictDurableObject(linkLedger(env, ws.workspaceId));
    const make = (key: string) =>
      new Request(`${ORIGIN}/v1/widget/launches/${id}`, {
        headers: { "x-api-key": key, "x-request-id": "req_same" },
      });
    const { direct, app } = await both(make, keys);
    expect(direct).toEqual(app);
    expect(direct.status).toBe(200);
  });

  it("when the ledger's call fails: 500 internal_error, the call counted apart", async () => {
    const ws = await seedWorkspace();
    const keys = await twoKeys(ws);
    const admission = {
      admitted: true,
      rateLimit: {
        allowed: true,
        limit: 120,
        remaining: 7,
        resetSeconds: 60,
        retryAfterSeconds: 0,
      },
    };
    const failing = () => Promise.reject(new Error("the ledger is unreachable"));
    const stub = { viewLink: failing, lookupLink: failing, admit: async () => admission };
    const broken = {
      ...bindings,
      LINK_LEDGER: { idFromName: (name: string) => name, get: () => stub },
    } as unknown as AppBindings;
    const { direct, app } = await both(
      (key) => request("GET", "/v1/widget/launches/lnk_x", key),
      keys,
      broken,
    );
    expect(direct).toEqual(app);
    expect(direct.status).toBe(500);
    expect(direct.headers.ratelimit).toBe('"widget-key";r=7;t=<s>');
  });
});

describe("the direct path leaves to the app", () => {
  it("what it does not serve exactly as the app would, before counting anything", async () => {
    const ws = await seedWorkspace();
    const path = "/v1/widget/launches/lnk_x";
    const untaken = [
      new Request(`${ORIGIN}${path}`, { method: "HEAD" }),
      new Request(`${ORIGIN}/v1/widget/launches`, { method: "GET" }),
      new Request(`${ORIGIN}${path}/end`, { method: "POST" }),
      request("GET", `${path}?x=1`, ws.widgetKey),
      request("GET", "/v1/widget/launches/lnk.x", ws.widgetKey),
      request("GET", "/v1/widget/launches/lnk%5Fx", ws.widgetKey),
      request("GET", `/v1/widget/launches/${"x".repeat(65)}`, ws.widgetKey),
      request("GET", path, ws.widgetKey, { origin: "https://example.com" }),
      request("GET", path, ws.widgetKey, { "sec-fetch-site": "cross-site" }),
    ];
    for (const taken of untaken)
      expect(directLaunch(taken, bindings, undefined, refuseApp)).toBe(null);
    const misconfigured = { ...bindings, SECRETS_KEY: "short" } as AppBindings;
    expect(
      directLaunch(request("GET", path, ws.widgetKey), misconfigured, undefined, refuseApp),
    ).toBe(null);
    // A key it cannot accept goes to the app, which answers 401 or, for a member's token, 403.
    for (const [key, status] of [
      ["wk_live_bad", 401],
      [ws.ownerToken, 403],
    ] as const) {
      const served = directLaunch(request("GET", path, key), bindings, undefined, () =>
        hotApp.fetch(request("GET", path, key), bindings),
      );
      expect((await (served as Promise<Response>)).status).toBe(status);
    }
    // Nothing was counted against the key by any of them.
    const counted = await exportsFetch(request("GET", path, ws.widgetKey));
    expect(counted.headers.get("ratelimit")).toMatch(/^"widget-key";r=119;/);
  });
});

async function exportsFetch(req: Request): Promise<Response> {
  const { exports } = await import("cloudflare:workers");
  const response = await exports.default.fetch(req);
  await response.arrayBuffer();
  return response;
}
