import { evictDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { type Link, links } from "../../src/db/schema";
import { linkLedger } from "../../src/launch/ledger/client";
import { toLaunch } from "../../src/launch/links";
import { call, expectJson, launchBody, ORIGIN, seedWorkspace } from "../helpers/api";

type Created = {
  id: string;
  status: string;
  expiresAt: string;
  token: string;
  url: string;
  embedHtml: string;
};

describe("create a link (spec 2.3, docs/api/launch.md)", () => {
  it("answers 201 with id, pending status, expiry, token, url and embedHtml", async () => {
    const ws = await seedWorkspace();
    const before = Date.now();
    const created = await expectJson<Created>(
      await call("POST", "/v1/widget/launches", { token: ws.widgetKey, body: launchBody(ws) }),
      201,
    );
    expect(Object.keys(created).sort()).toEqual([
      "embedHtml",
      "expiresAt",
      "id",
      "status",
      "token",
      "url",
    ]);
    expect(created.id).toMatch(/^lnk_[0-9A-Za-z]{22}$/);
    expect(created.status).toBe("pending");
    expect(created.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(created.expiresAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // Default expiry: 7 days.
    const expiresIn = Date.parse(created.expiresAt) - before;
    expect(expiresIn).toBeGreaterThanOrEqual(604_800_000);
    expect(expiresIn).toBeLessThan(604_800_000 + 5_000);
    expect(created.url).toBe(`${ORIGIN}/chat#launch=${created.token}`);
    expect(created.embedHtml).toBe(
      `<script src="${ORIGIN}/widget.js" data-flow-id="${ws.agentId}" data-channel-id="${ws.channelId}" data-launch="${created.token}" async></script>`,
    );
  });

  it("uses BASE_URL for url and embedHtml when it is set", async () => {
    const ws = await seedWorkspace();
    const app = (await import("../../src/index")).default;
    const response = await app.fetch(
      new Request(`${ORIGIN}/v1/widget/launches`, {
        method: "POST",
        headers: { authorization: `Bearer ${ws.widgetKey}`, "content-type": "application/json" },
        body: JSON.stringify(launchBody(ws)),
      }),
      { ...env, BASE_URL: "https://launch.example.com" },
    );
    const created = await expectJson<Created>(response, 201);
    expect(created.url.startsWith("https://launch.example.com/chat#launch=")).toBe(true);
    expect(created.embedHtml).toContain('src="https://launch.example.com/widget.js"');
  });

  it("honours expiresInSeconds", async () => {
    const ws = await seedWorkspace();
    const before = Date.now();
    const created = await expectJson<Created>(
      await call("POST", "/v1/widget/launches", {
        token: ws.widgetKey,
        body: launchBody(ws, { expiresInSeconds: 300 }),
      }),
      201,
    );
    expect(Date.parse(created.expiresAt) - before).toBeGreaterThanOrEqual(300_000);
    expect(Date.parse(created.expiresAt) - before).toBeLessThan(305_000);
  });

  it("gives every link its own token", async () => {
    const ws = await seedWorkspace();
    const tokens = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const created = await expectJson<Created>(
        await call("POST", "/v1/widget/launches", { token: ws.widgetKey, body: launchBody(ws) }),
        201,
      );
      tokens.add(created.token);
    }
    expect(tokens.size).toBe(5);
  });
});

describe("look up a link (spec 2.4)", () => {
  it("shows status, expiry and participant, and never the token or the parameters", async () => {
    const ws = await seedWorkspace();
    const created = await expectJson<Created>(
      await call("POST", "/v1/widget/launches", {
        token: ws.widgetKey,
        body: launchBody(ws, {
          parameters: { plan: "secret-plan-value", tier: "enterprise", seats: 7 },
          participant: { name: "Ada Lovelace", externalId: "cus_42" },
          globalTask: "Offer the annual discount",
        }),
      }),
      201,
    );
    const response = await call("GET", `/v1/widget/launches/${created.id}`, {
      apiKey: ws.widgetKey,
    });
    const text = await response.clone().text();
    const looked = await expectJson<Record<string, unknown>>(response, 200);
    expect(looked).toEqual({
      id: created.id,
      status: "pending",
      expiresAt: created.expiresAt,
      flowId: ws.agentId,
      channelId: ws.channelId,
      createdAt: expect.stringMatching(/Z$/),
      participant: { name: "Ada Lovelace", externalId: "cus_42" },
      metadata: {},
      conversation: null,
    });
    for (const secret of [created.token, "secret-plan-value", "enterprise", "annual discount"]) {
      expect(text).not.toContain(secret);
    }
  });

  it("shows null participant fields when none were given", async () => {
    const ws = await seedWorkspace();
    const created = await expectJson<Created>(
      await call("POST", "/v1/widget/launches", { token: ws.widgetKey, body: launchBody(ws) }),
      201,
    );
    const looked = await expectJson<{ participant: unknown }>(
      await call("GET", `/v1/widget/launches/${created.id}`, { token: ws.widgetKey }),
      200,
    );
    expect(looked.participant).toEqual({ name: null, externalId: null });
  });

  it("shows `expired` once a pending link's expiry has passed", async () => {
    const ws = await seedWorkspace();
    const created = await expectJson<Created>(
      await call("POST", "/v1/widget/launches", { token: ws.widgetKey, body: launchBody(ws) }),
      201,
    );
    const expiresAt = Date.parse(created.expiresAt);
    // The status is derived from the clock: pending until the expiry, expired from then on.
    const link = (await drizzle(env.DB)
      .select()
      .from(links)
      .where(eq(links.id, created.id))
      .get()) as Link;
    expect(toLaunch(link, expiresAt - 1).status).toBe("pending");
    expect(toLaunch(link, expiresAt).status).toBe("expired");
    // Through the API: time passes (the stored expiry is now behind us), the object restarts.
    await env.DB.prepare("UPDATE links SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, created.id)
      .run();
    await evictDurableObject(linkLedger(env, ws.workspaceId));
    const looked = await expectJson<{ status: string }>(
      await call("GET", `/v1/widget/launches/${created.id}`, { token: ws.widgetKey }),
      200,
    );
    expect(looked.status).toBe("expired");
  });
});

describe("revoke a link (spec 4.3)", () => {
  it("answers 204 with no body, again 204 when repeated, and the link shows revoked", async () => {
    const ws = await seedWorkspace();
    const created = await expectJson<Created>(
      await call("POST", "/v1/widget/launches", { token: ws.widgetKey, body: launchBody(ws) }),
      201,
    );
    for (let i = 0; i < 2; i++) {
      const response = await call("DELETE", `/v1/widget/launches/${created.id}`, {
        token: ws.widgetKey,
      });
      expect(response.status).toBe(204);
      expect(await response.text()).toBe("");
    }
    const looked = await expectJson<{ status: string }>(
      await call("GET", `/v1/widget/launches/${created.id}`, { token: ws.widgetKey }),
      200,
    );
    expect(looked.status).toBe("revoked");
  });

  it("revokes an expired link too", async () => {
    const ws = await seedWorkspace();
    const created = await expectJson<Created>(
      await call("POST", "/v1/widget/launches", { token: ws.widgetKey, body: launchBody(ws) }),
      201,
    );
    await env.DB.prepare("UPDATE links SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, created.id)
      .run();
    expect(
      (await call("DELETE", `/v1/widget/launches/${created.id}`, { token: ws.widgetKey })).status,
    ).toBe(204);
    const looked = await expectJson<{ status: string }>(
      await call("GET", `/v1/widget/launches/${created.id}`, { token: ws.widgetKey }),
      200,
    );
    expect(looked.status).toBe("revoked");
  });
});

describe("every response", () => {
  it("carries x-request-id, and echoes a well-formed incoming one", async () => {
    const response = await call("GET", "/health");
    expect(response.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
    const echoed = await call("GET", "/health", { headers: { "x-request-id": "trace-123" } });
    expect(echoed.headers.get("x-request-id")).toBe("trace-123");
  });
});
