import { evictDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { authenticateWidgetKey } from "../../src/auth/credentials";
import { linkLedger } from "../../src/launch/ledger/client";
import {
  call,
  createWidgetKey,
  errorCode,
  expectJson,
  launchBody,
  seedWorkspace,
} from "../helpers/api";

describe("widget key headers (spec 5.1)", () => {
  it("accepts the key as Authorization: Bearer and as x-api-key", async () => {
    const ws = await seedWorkspace();
    const viaBearer = await call("POST", "/v1/widget/launches", {
      token: ws.widgetKey,
      body: launchBody(ws),
    });
    expect(viaBearer.status).toBe(201);
    const viaHeader = await call("POST", "/v1/widget/launches", {
      apiKey: ws.widgetKey,
      body: launchBody(ws),
    });
    expect(viaHeader.status).toBe(201);
  });

  it.each([
    ["no key", {}],
    [
      "an unknown key of the right shape",
      { authorization: "Bearer wk_live_00000000000000000000000000000000000000" },
    ],
    ["a malformed key", { "x-api-key": "hello" }],
    ["another auth scheme", { authorization: "Basic d2s6bGl2ZQ==" }],
  ])("refuses %s with 401 invalid_key", async (_label, headers) => {
    const response = await call("GET", "/v1/widget/launches/lnk_x", { headers });
    expect(response.status).toBe(401);
    expect(await errorCode(response)).toBe("invalid_key");
  });

  it("refuses two different keys in the two headers", async () => {
    const ws = await seedWorkspace();
    const second = await createWidgetKey(ws, {});
    const response = await call("GET", "/v1/widget/launches/lnk_x", {
      token: ws.widgetKey,
      apiKey: second.key,
    });
    expect(response.status).toBe(401);
  });
});

describe("key states (spec 5.3 to 5.5)", () => {
  it("refuses a key whose expiry passes after it was first used", async () => {
    const ws = await seedWorkspace();
    const expiresAt = Date.now() + 60_000;
    const key = await createWidgetKey(ws, { expiresAt: new Date(expiresAt).toISOString() });
    expect((await call("GET", "/v1/widget/launches/lnk_x", { token: key.key })).status).toBe(404);
    const db = drizzle(env.DB);
    expect(await authenticateWidgetKey(db, key.key, expiresAt - 1)).toMatchObject({
      keyId: key.id,
    });
    expect(await authenticateWidgetKey(db, key.key, expiresAt)).toBeNull();
  });

  it("limits a key to its agents: forbidden_flow on create, look-up and revoke", async () => {
    const ws = await seedWorkspace();
    const second = await expectJson<{ id: string }>(
      await call("POST", "/v1/manage/agents", {
        token: ws.ownerToken,
        body: { name: "Other", mode: "responder" },
      }),
      201,
    );
    const secondChannel = await expectJson<{ id: string }>(
      await call("POST", `/v1/manage/agents/${second.id}/channels`, {
        token: ws.ownerToken,
        body: { type: "widget", name: "w" },
      }),
      201,
    );
    const limited = await createWidgetKey(ws, { flowIds: [second.id] });
    const own = await call("POST", "/v1/widget/launches", {
      token: limited.key,
      body: { flowId: second.id, channelId: secondChannel.id },
    });
    expect(own.status).toBe(201);
    const forbidden = await call("POST", "/v1/widget/launches", {
      token: limited.key,
      body: launchBody(ws),
    });
    expect(forbidden.status).toBe(403);
    expect(await errorCode(forbidden)).toBe("forbidden_flow");
    const other = await expectJson<{ id: string }>(
      await call("POST", "/v1/widget/launches", { token: ws.widgetKey, body: launchBody(ws) }),
      201,
    );
    for (const method of ["GET", "DELETE"]) {
      const response = await call(method, `/v1/widget/launches/${other.id}`, {
        token: limited.key,
      });
      expect(response.status).toBe(403);
      expect(await errorCode(response)).toBe("forbidden_flow");
    }
    const still = await expectJson<{ status: string }>(
      await call("GET", `/v1/widget/launches/${other.id}`, { token: ws.widgetKey }),
      200,
    );
    expect(still.status).toBe("pending");
  });

  it("refuses a key of another workspace for this workspace's agent", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const response = await call("POST", "/v1/widget/launches", {
      token: other.widgetKey,
      body: launchBody(ws),
    });
    expect(response.status).toBe(404);
    expect(await errorCode(response)).toBe("widget_not_found");
  });

  it("keeps a key working after the admin who created it is removed", async () => {
    const ws = await seedWorkspace();
    const admin = await expectJson<{ member: { id: string }; memberToken: string }>(
      await call("POST", "/v1/manage/members", {
        token: ws.ownerToken,
        body: { email: "admin@example.com", name: "Ann Admin", role: "admin" },
      }),
      201,
    );
    const key = await createWidgetKey(ws, {}, admin.memberToken);
    expect(
      (await call("DELETE", `/v1/manage/members/${admin.member.id}`, { token: ws.ownerToken }))
        .status,
    ).toBe(204);
    expect((await call("GET", "/v1/manage/agents", { token: admin.memberToken })).status).toBe(401);
    const response = await call("POST", "/v1/widget/launches", {
      token: key.key,
      body: launchBody(ws),
    });
    expect(response.status).toBe(201);
  });
});

describe("browser refusal (spec 5.2, docs/api/launch.md)", () => {
  it.each([
    ["Origin", { origin: "https://customer.example" }],
    ["Sec-Fetch-Site", { "sec-fetch-site": "cross-site" }],
    ["Sec-Fetch-Mode: navigate", { "sec-fetch-mode": "navigate" }],
    ["Sec-Fetch-Mode: no-cors", { "sec-fetch-mode": "no-cors" }],
    ["Sec-Fetch-Dest", { "sec-fetch-dest": "empty" }],
    [
      "a browser's full set",
      { "sec-fetch-mode": "cors", "sec-fetch-site": "same-origin", "sec-fetch-dest": "empty" },
    ],
  ])(
    "refuses a request with %s, even with a valid key, and sends no CORS headers",
    async (_label, headers) => {
      const ws = await seedWorkspace();
      const response = await call("POST", "/v1/widget/launches", {
        token: ws.widgetKey,
        body: launchBody(ws),
        headers,
      });
      expect(response.status).toBe(403);
      expect(await errorCode(response)).toBe("browser_not_allowed");
      expect(
        [...response.headers.keys()].filter((name) => name.startsWith("access-control-")),
      ).toEqual([]);
    },
  );

  it("refuses a CORS preflight", async () => {
    const response = await call("OPTIONS", "/v1/widget/launches", {
      headers: { origin: "https://customer.example", "access-control-request-method": "POST" },
    });
    expect(response.status).toBe(403);
    expect(await errorCode(response)).toBe("browser_not_allowed");
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    const bare = await call("OPTIONS", "/v1/widget/launches/lnk_x");
    expect(bare.status).toBe(403);
  });

  it("accepts Node's server-side fetch, which sends a lone Sec-Fetch-Mode: cors", async () => {
    const ws = await seedWorkspace();
    const response = await call("POST", "/v1/widget/launches", {
      token: ws.widgetKey,
      body: launchBody(ws),
      headers: { "sec-fetch-mode": "cors", "user-agent": "node", accept: "*/*" },
    });
    expect(response.status).toBe(201);
  });
});

describe("rate limit (spec 8, docs/api/launch.md)", () => {
  it("accepts 120 calls per key in a minute, then 429 with Retry-After and RateLimit headers", async () => {
    const ws = await seedWorkspace();
    for (let i = 1; i <= 120; i++) {
      const response = await call("GET", "/v1/widget/launches/lnk_unknown", {
        token: ws.widgetKey,
      });
      expect(response.status).toBe(404);
      expect(response.headers.get("ratelimit-policy")).toBe('"widget-key";q=120;w=60');
      expect(response.headers.get("ratelimit")).toMatch(
        new RegExp(`^"widget-key";r=${120 - i};t=\\d+$`),
      );
    }
    const limited = await call("POST", "/v1/widget/launches", {
      token: ws.widgetKey,
      body: launchBody(ws),
    });
    expect(limited.status).toBe(429);
    expect(await errorCode(limited)).toBe("rate_limited");
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get("ratelimit")).toMatch(/^"widget-key";r=0;t=\d+$/);

    // Another key of the same workspace has its own budget.
    const second = await createWidgetKey(ws, {});
    expect(
      (await call("GET", "/v1/widget/launches/lnk_unknown", { token: second.key })).status,
    ).toBe(404);

    // The log lives in the object's storage: a restart forgets nothing.
    await evictDurableObject(linkLedger(env, ws.workspaceId));
    expect(
      (await call("GET", "/v1/widget/launches/lnk_unknown", { token: ws.widgetKey })).status,
    ).toBe(429);
  });

  it("counts calls with a valid key that fail later (400, 404), and not calls without a key", async () => {
    const ws = await seedWorkspace();
    for (let i = 0; i < 60; i++) {
      await call("POST", "/v1/widget/launches", { token: ws.widgetKey, body: { bad: true } });
      await call("GET", "/v1/widget/launches/lnk_unknown", { token: "wk_live_bad" });
    }
    // A call refused before the limiter (400) still counts and carries the RateLimit headers.
    const early = await call("POST", "/v1/widget/launches", {
      token: ws.widgetKey,
      body: { bad: true },
    });
    expect(early.status).toBe(400);
    expect(early.headers.get("ratelimit")).toMatch(/^"widget-key";r=59;t=\d+$/);
    for (let i = 0; i < 59; i++) {
      await call("DELETE", "/v1/widget/launches/lnk_unknown", { token: ws.widgetKey });
    }
    expect(
      (await call("GET", "/v1/widget/launches/lnk_unknown", { token: ws.widgetKey })).status,
    ).toBe(429);
  });
});
