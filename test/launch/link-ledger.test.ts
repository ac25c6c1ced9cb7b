import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it, vi } from "vitest";
import { linkLedger } from "../../src/launch/ledger/client";
import { openLinkByToken } from "../../src/launch/links";
import { call, eventually, expectJson, launchBody, seedWorkspace } from "../helpers/api";
import { insertPendingLinks, pendingInD1 } from "../helpers/seed-links";

async function createLink(ws: Awaited<ReturnType<typeof seedWorkspace>>): Promise<Response> {
  return call("POST", "/v1/widget/launches", { token: ws.widgetKey, body: launchBody(ws) });
}

describe("pending-link cap (spec 8, docs/api/launch.md)", () => {
  it("lets exactly 10 of 20 concurrent creates through at 9,990, then 409 at 10,000", async () => {
    const ws = await seedWorkspace();
    await insertPendingLinks(ws.workspaceId, ws.agentId, ws.channelId, 9_990);
    const responses = await Promise.all(Array.from({ length: 20 }, () => createLink(ws)));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 409)).toHaveLength(10);
    const refused = responses.find((response) => response.status === 409) as Response;
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(
      "too_many_pending_links",
    );
    expect(await pendingInD1(ws.workspaceId)).toBe(10_000);
    expect((await createLink(ws)).status).toBe(409);

    // No drift after a restart: the object's count is what D1 holds.
    const limiter = linkLedger(env, ws.workspaceId);
    await evictDurableObject(limiter);
    expect((await limiter.usage(ws.workspaceId)).pendingLinks).toBe(10_000);
    expect((await createLink(ws)).status).toBe(409);
  });

  it("frees a slot when a pending link is revoked, and not when an already revoked one is", async () => {
    const ws = await seedWorkspace();
    await insertPendingLinks(ws.workspaceId, ws.agentId, ws.channelId, 9_999);
    const last = await expectJson<{ id: string }>(await createLink(ws), 201);
    expect((await createLink(ws)).status).toBe(409);
    expect(
      (await call("DELETE", `/v1/widget/launches/${last.id}`, { token: ws.widgetKey })).status,
    ).toBe(204);
    expect(
      (await call("DELETE", `/v1/widget/launches/${last.id}`, { token: ws.widgetKey })).status,
    ).toBe(204);
    expect((await linkLedger(env, ws.workspaceId).usage(ws.workspaceId)).pendingLinks).toBe(9_999);
    expect((await createLink(ws)).status).toBe(201);
    expect((await createLink(ws)).status).toBe(409);
  });

  it("frees the slots of links whose expiry has passed", async () => {
    const ws = await seedWorkspace();
    await insertPendingLinks(ws.workspaceId, ws.agentId, ws.channelId, 9_995);
    await insertPendingLinks(ws.workspaceId, ws.agentId, ws.channelId, 5, Date.now() + 3_600_000);
    expect((await createLink(ws)).status).toBe(409);
    // Time passes for the first 9,995 (their expiry is now behind us); the object restarts.
    await env.DB.prepare(
      "UPDATE links SET expires_at = ? WHERE workspace_id = ? AND expires_at > ?",
    )
      .bind(Date.now() - 1, ws.workspaceId, Date.now() + 3_600_000)
      .run();
    await evictDurableObject(linkLedger(env, ws.workspaceId));
    expect((await createLink(ws)).status).toBe(201);
    expect((await linkLedger(env, ws.workspaceId).usage(ws.workspaceId)).pendingLinks).toBe(6);
  });

  it("rebuilds the count from D1 on restart, whatever the object held before", async () => {
    const ws = await seedWorkspace();
    const limiter = linkLedger(env, ws.workspaceId);
    for (let i = 0; i < 3; i++) expect((await createLink(ws)).status).toBe(201);
    expect((await limiter.usage(ws.workspaceId)).pendingLinks).toBe(3);
    await insertPendingLinks(ws.workspaceId, ws.agentId, ws.channelId, 7);
    await evictDurableObject(limiter);
    expect((await limiter.usage(ws.workspaceId)).pendingLinks).toBe(10);
    expect(await pendingInD1(ws.workspaceId)).toBe(10);
  });
});

describe("rate-limit storage", () => {
  it("counts, after the object restarts, only the calls still inside the window, and keeps no more", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const ws = await seedWorkspace();
      const limiter = linkLedger(env, ws.workspaceId);
      const now = Date.now();
      for (const ago of [120_000, 61_000, 1_000]) {
        vi.setSystemTime(now - ago);
        await call("GET", "/v1/widget/launches/lnk_x", { token: ws.widgetKey });
        await runInDurableObject(limiter, (_instance, state) => state.storage.sync());
      }
      vi.setSystemTime(now);
      await evictDurableObject(limiter);
      // The object starts again and loads the key's log: the call a second ago still counts.
      const response = await call("GET", "/v1/widget/launches/lnk_x", { token: ws.widgetKey });
      expect(response.headers.get("ratelimit")).toMatch(/^"widget-key";r=118;/);
      // What left the window is deleted: the ledger keeps nothing else of its own in storage,
      // so what remains is the two calls inside the window (however they are grouped).
      // The prune follows the first batch's write (10 ms): wait for it.
      const stored = await eventually(async () => {
        const size = await runInDurableObject(limiter, async (_instance, state) => {
          await state.storage.sync();
          return (await state.storage.list()).size;
        });
        return size <= 2 ? size : undefined;
      });
      expect(stored).toBeLessThanOrEqual(2);
      expect(stored).toBeGreaterThanOrEqual(1);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("opening a link (pending → active)", () => {
  it("activates a pending link once, frees its slot and resumes it afterwards", async () => {
    const ws = await seedWorkspace();
    const created = await expectJson<{ id: string; token: string }>(await createLink(ws), 201);
    const limiter = linkLedger(env, ws.workspaceId);
    expect((await limiter.usage(ws.workspaceId)).pendingLinks).toBe(1);
    const db = drizzle(env.DB);
    const limiterFor = (workspaceId: string) => linkLedger(env, workspaceId);

    const first = await openLinkByToken(db, limiterFor, created.token);
    expect(first.opened).toBe(true);
    expect(first.link.status).toBe("active");
    expect(first.link.sessionId).toMatch(/^ses_/);
    expect((await limiter.usage(ws.workspaceId)).pendingLinks).toBe(0);

    const again = await openLinkByToken(db, limiterFor, created.token);
    expect(again).toMatchObject({ opened: false, link: { sessionId: first.link.sessionId } });

    const looked = await expectJson<{ status: string; conversation: Record<string, unknown> }>(
      await call("GET", `/v1/widget/launches/${created.id}`, { token: ws.widgetKey }),
      200,
    );
    expect(looked.status).toBe("active");
    expect(looked.conversation).toEqual({
      sessionId: first.link.sessionId,
      status: "in-progress",
      startedAt: new Date(first.link.startedAt as number).toISOString(),
      endedAt: null,
    });
  });

  it("refuses a revoked or expired link with link_unavailable and an unknown token with not_found", async () => {
    const ws = await seedWorkspace();
    const db = drizzle(env.DB);
    const limiterFor = (workspaceId: string) => linkLedger(env, workspaceId);
    const revoked = await expectJson<{ id: string; token: string }>(await createLink(ws), 201);
    await call("DELETE", `/v1/widget/launches/${revoked.id}`, { token: ws.widgetKey });
    await expect(openLinkByToken(db, limiterFor, revoked.token)).rejects.toMatchObject({
      status: 403,
      code: "link_unavailable",
      details: [{ reason: "revoked" }],
    });
    const expired = await expectJson<{ id: string; token: string }>(await createLink(ws), 201);
    await env.DB.prepare("UPDATE links SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, expired.id)
      .run();
    await expect(openLinkByToken(db, limiterFor, expired.token)).rejects.toMatchObject({
      code: "link_unavailable",
      details: [{ reason: "expired" }],
    });
    await expect(openLinkByToken(db, limiterFor, "not-a-token")).rejects.toMatchObject({
      status: 404,
      code: "not_found",
    });
  });
});

describe("GET /v1/manage/usage", () => {
  it("shows any member the pending links the ledger counts and the cap", async () => {
    const ws = await seedWorkspace();
    await insertPendingLinks(ws.workspaceId, ws.agentId, ws.channelId, 7);
    expect((await createLink(ws)).status).toBe(201);
    const usage = await expectJson(
      await call("GET", "/v1/manage/usage", { token: ws.ownerToken }),
      200,
    );
    expect(usage).toEqual({ pendingLinks: 8, maxPendingLinks: 10_000 });
  });
});
