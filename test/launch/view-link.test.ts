/**
 * The ledger's `viewLink` answers without awaiting when the key's revocation, its window and the
 * link are in memory (docs/performance.md#look-up-and-revoke-without-the-app), and answers exactly
 * what the awaited path does: counted once, a revoked key refused, the limit's 429, a link outside
 * the key's scope not found, an uncached link read from D1 after its call was counted.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { linkLedger } from "../../src/launch/ledger/client";
import type { Guarded } from "../../src/launch/ledger/contract";
import type { LinkLedger } from "../../src/launch/ledger/object";
import { type PackedView, packView, unpackView } from "../../src/launch/ledger/packed-view";
import { call, expectJson, launchBody, seedWorkspace } from "../helpers/api";

describe("LinkLedger.viewLink", () => {
  it("awaits nothing once the key, its window and the link are in memory; same answers", async () => {
    const ws = await seedWorkspace();
    const created = await expectJson<{ id: string }>(
      await call("POST", "/v1/widget/launches", { token: ws.widgetKey, body: launchBody(ws) }),
      201,
    );
    const key = { keyId: ws.widgetKeyId, workspaceId: ws.workspaceId, flowIds: null };
    await runInDurableObject(linkLedger(env, ws.workspaceId), async (instance: LinkLedger) => {
      const now = Date.now();
      // The create loaded the key's window and cached the link: answered at once.
      const first = instance.viewLink(key, created.id, now);
      expect(first).not.toBeInstanceOf(Promise);
      // Found: packed into one string (packed-view.ts), the window's figures and the view.
      expect(typeof first).toBe("string");
      const { window, view } = unpackView(first as PackedView);
      expect(window).toEqual({ limit: 120, remaining: 118, resetSeconds: 60 });
      expect(JSON.parse(view)).toMatchObject({ id: created.id, status: "pending" });

      // Outside the key's agents: 403, counted.
      const limited = { ...key, flowIds: ["agt_other"] };
      const refused = (await instance.viewLink(limited, created.id, now)) as Guarded<string>;
      expect(refused).toMatchObject({
        admission: { rateLimit: { remaining: 117 } },
        result: { ok: false, refusal: { code: "forbidden_flow" } },
      });
      // A link no cache holds: counted at once, then read from D1 (not found).
      const missing = instance.viewLink(key, "lnk_missing", now);
      expect(missing).toBeInstanceOf(Promise);
      expect(await missing).toMatchObject({
        admission: { rateLimit: { remaining: 116 } },
        result: { ok: false, refusal: { code: "not_found" } },
      });
      // The limit: the 120th call of the minute passes, the 121st is refused without its work.
      for (let n = 4; n <= 120; n++) await instance.viewLink(key, created.id, now);
      expect(instance.viewLink(key, created.id, now)).toMatchObject({
        admission: { admitted: false, reason: "rate_limited" },
      });
      // A revoked key: refused at once, counted nowhere.
      expect(await instance.revokeWidgetKey(ws.workspaceId, ws.widgetKeyId)).toBe(true);
      expect(instance.viewLink(key, created.id, now)).toEqual({
        admission: { admitted: false, reason: "key_revoked" },
      });
    });
  });

  it("a key whose window is not in memory yet is admitted the awaited way", async () => {
    const ws = await seedWorkspace();
    const key = { keyId: ws.widgetKeyId, workspaceId: ws.workspaceId, flowIds: null };
    await runInDurableObject(linkLedger(env, ws.workspaceId), async (instance: LinkLedger) => {
      const first = instance.viewLink(key, "lnk_missing", Date.now());
      expect(first).toBeInstanceOf(Promise);
      expect(await first).toMatchObject({
        admission: { admitted: true, rateLimit: { remaining: 119 } },
        result: { ok: false, refusal: { code: "not_found" } },
      });
      expect(instance.viewLink(key, "lnk_missing", Date.now())).toBeInstanceOf(Promise);
    });
  });

  it("a kept view changes at the link's expiry, on either side of it, whatever order times come in", async () => {
    const ws = await seedWorkspace();
    const created = await expectJson<{ id: string; expiresAt: string }>(
      await call("POST", "/v1/widget/launches", { token: ws.widgetKey, body: launchBody(ws) }),
      201,
    );
    const key = { keyId: ws.widgetKeyId, workspaceId: ws.workspaceId, flowIds: null };
    const expiry = Date.parse(created.expiresAt);
    await runInDurableObject(linkLedger(env, ws.workspaceId), async (instance: LinkLedger) => {
      const statusAt = (now: number) => {
        const packed = instance.viewLink(key, created.id, now);
        if (typeof packed !== "string") throw new Error("not answered from memory");
        return (JSON.parse(unpackView(packed).view) as { status: string }).status;
      };
      expect(statusAt(expiry - 1)).toBe("pending");
      expect(statusAt(expiry)).toBe("expired");
      // A Worker whose clock is a little behind still sees the link pending.
      expect(statusAt(expiry - 1)).toBe("pending");
      expect(statusAt(expiry + 5)).toBe("expired");
      expect(statusAt(Date.now())).toBe("pending");
    });
    // The revocation stores a new row: its view is made afresh.
    await call("DELETE", `/v1/widget/launches/${created.id}`, { token: ws.widgetKey });
    await runInDurableObject(linkLedger(env, ws.workspaceId), async (instance: LinkLedger) => {
      const packed = instance.viewLink(key, created.id, Date.now()) as PackedView;
      expect(JSON.parse(unpackView(packed).view)).toMatchObject({ status: "revoked" });
    });
  });
});

describe("packView", () => {
  it("carries the window's figures and any view text unchanged", () => {
    const view = JSON.stringify({ id: "lnk_1", metadata: { note: "a b\n{c} 1 2 3" } });
    for (const window of [
      { limit: 120, remaining: 0, resetSeconds: 60 },
      { limit: 999999999, remaining: 999999998, resetSeconds: 1 },
    ]) {
      expect(unpackView(packView(window, view))).toEqual({ window, view });
    }
  });
});
