/**
 * The dashboard's widget preview (docs/api/manage.md#widget-preview): any member, with a token or
 * the session, gets a link of their own on a widget channel, given again while live, renewed on
 * restart or other values (the old one revoked), under the launch API's rules; and its stand-in
 * page at /app/preview/{linkId}, only for that member, under its own policy.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { openPreviewLink } from "../../src/agents/preview/preview";
import { database } from "../../src/db/database";
import { linkLedger } from "../../src/launch/ledger/client";
import {
  call,
  errorCode,
  expectJson,
  launchBody,
  ORIGIN,
  seedWorkspace,
  type Workspace,
} from "../helpers/api";
import { open } from "../helpers/chat";
import { DASHBOARD_HEADERS, sessionCookie, withSession } from "../helpers/session";

type Preview = {
  id: string;
  status: string;
  expiresAt: string;
  token: string;
  url: string;
  embedHtml: string;
  participant: { name: string; externalId: string };
  previewUrl: string;
  reused: boolean;
};

const previewPath = (ws: Workspace, channelId = ws.channelId, agentId = ws.agentId) =>
  `/v1/manage/agents/${agentId}/channels/${channelId}/preview-link`;

const ask = (ws: Workspace, token: string, body: unknown = { parameters: { plan: "basic" } }) =>
  call("POST", previewPath(ws), { token, body });

async function invite(ws: Workspace, name: string): Promise<{ id: string; token: string }> {
  const created = await expectJson<{ member: { id: string }; memberToken: string }>(
    await call("POST", "/v1/manage/members", {
      token: ws.ownerToken,
      body: { email: `${crypto.randomUUID()}@example.com`, name, role: "member" },
    }),
    201,
  );
  return { id: created.member.id, token: created.memberToken };
}

const linkStatus = async (ws: Workspace, id: string) =>
  (
    await expectJson<{ status: string }>(
      await call("GET", `/v1/manage/links/${id}`, { token: ws.ownerToken }),
      200,
    )
  ).status;

describe("POST /v1/manage/agents/{id}/channels/{channelId}/preview-link", () => {
  it("gives any member a working link of their own: the member is the person", async () => {
    const ws = await seedWorkspace();
    const pat = await invite(ws, "Pat Member");
    const before = Date.now();
    const preview = await expectJson<Preview>(await ask(ws, pat.token), 201);
    expect(preview).toMatchObject({
      status: "pending",
      reused: false,
      participant: { name: "Pat Member", externalId: `dashboard-preview:${pat.id}` },
      previewUrl: `${ORIGIN}/app/preview/${preview.id}`,
      url: `${ORIGIN}/chat#launch=${preview.token}`,
    });
    expect(preview.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(preview.embedHtml).toBe(
      `<script src="${ORIGIN}/widget.js" data-flow-id="${ws.agentId}" data-channel-id="${ws.channelId}" data-launch="${preview.token}" async></script>`,
    );
    const expiresIn = Date.parse(preview.expiresAt) - before;
    expect(expiresIn).toBeGreaterThanOrEqual(86_400_000 - 1_000);
    expect(expiresIn).toBeLessThanOrEqual(86_400_000 + 60_000);
    // The token opens the conversation, greeted by name, like any link's.
    const session = await open(preview.token);
    expect(session.participant.name).toBe("Pat Member");
    expect(session.messages[0]?.text).toBe("Hi Pat Member!");
    // The workspace sees it among its links, recognisable by its external id.
    const listed = await expectJson<{ data: { id: string }[] }>(
      await call(
        "GET",
        `/v1/manage/links?externalId=${encodeURIComponent(`dashboard-preview:${pat.id}`)}`,
        { token: ws.ownerToken },
      ),
      200,
    );
    expect(listed.data.map((link) => link.id)).toEqual([preview.id]);
  });

  it("gives the live link again; restart or other values make a new one and revoke the old", async () => {
    const ws = await seedWorkspace();
    const first = await expectJson<Preview>(await ask(ws, ws.ownerToken), 201);
    await open(first.token);
    const again = await expectJson<Preview>(await ask(ws, ws.ownerToken), 200);
    expect(again).toMatchObject({ id: first.id, token: first.token, status: "active" });
    expect(again.reused).toBe(true);
    // Another member's preview is theirs alone and changes nothing of this one.
    const pat = await invite(ws, "Pat");
    const theirs = await expectJson<Preview>(await ask(ws, pat.token), 201);
    expect(theirs.id).not.toBe(first.id);

    const restarted = await expectJson<Preview>(
      await ask(ws, ws.ownerToken, { parameters: { plan: "basic" }, restart: true }),
      201,
    );
    expect(restarted.id).not.toBe(first.id);
    expect(restarted.token).not.toBe(first.token);
    expect(await linkStatus(ws, first.id)).toBe("revoked");
    expect(await linkStatus(ws, theirs.id)).toBe("pending");

    const other = await expectJson<Preview>(
      await ask(ws, ws.ownerToken, { parameters: { plan: "pro" }, globalTask: "Upsell" }),
      201,
    );
    expect(await linkStatus(ws, restarted.id)).toBe("revoked");
    const same = await expectJson<Preview>(
      await ask(ws, ws.ownerToken, { globalTask: "Upsell", parameters: { plan: "pro" } }),
      200,
    );
    expect(same.id).toBe(other.id);
    // A second channel of the agent has previews of its own.
    const second = await expectJson<{ id: string }>(
      await call("POST", `/v1/manage/agents/${ws.agentId}/channels`, {
        token: ws.ownerToken,
        body: { type: "widget", name: "Help center" },
      }),
      201,
    );
    await expectJson(
      await call("POST", previewPath(ws, second.id), {
        token: ws.ownerToken,
        body: { parameters: { plan: "pro" } },
      }),
      201,
    );
    expect(await linkStatus(ws, other.id)).toBe("pending");
  });

  it("gives a new link when less than an hour of the live one remains", async () => {
    const ws = await seedWorkspace();
    const first = await expectJson<Preview>(await ask(ws, ws.ownerToken), 201);
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.parse(first.expiresAt) - 3_600_000 - 1_000);
      expect((await expectJson<Preview>(await ask(ws, ws.ownerToken), 200)).id).toBe(first.id);
      vi.setSystemTime(Date.parse(first.expiresAt) - 3_600_000 + 1_000);
      const renewed = await expectJson<Preview>(await ask(ws, ws.ownerToken), 201);
      expect(renewed.id).not.toBe(first.id);
      expect(await linkStatus(ws, first.id)).toBe("revoked");
    } finally {
      vi.useRealTimers();
    }
  });

  it("gives a new link when its token no longer derives from SECRETS_KEY (the key changed)", async () => {
    const ws = await seedWorkspace();
    const first = await expectJson<Preview>(await ask(ws, ws.ownerToken), 201);
    const member = { memberId: ws.ownerId, workspaceId: ws.workspaceId, role: "owner" as const };
    const rotated = await openPreviewLink(
      {
        db: database(env),
        ledger: linkLedger(env, ws.workspaceId),
        secretsKey: btoa(String.fromCharCode(...new Uint8Array(32).fill(7))),
        baseUrl: ORIGIN,
        appUrl: ORIGIN,
      },
      member,
      ws.agentId,
      ws.channelId,
      { parameters: { plan: "basic" } },
    );
    expect(rotated.reused).toBe(false);
    expect(rotated.id).not.toBe(first.id);
    expect(await linkStatus(ws, first.id)).toBe("revoked");
    expect((await open(rotated.token)).participant.name).toBe("Olga Owner");
  });

  it("never takes a widget key's link with the same external id for the member's preview", async () => {
    const ws = await seedWorkspace();
    const keyLink = await expectJson<{ id: string }>(
      await call("POST", "/v1/widget/launches", {
        token: ws.widgetKey,
        body: launchBody(ws, { participant: { externalId: `dashboard-preview:${ws.ownerId}` } }),
      }),
      201,
    );
    const preview = await expectJson<Preview>(await ask(ws, ws.ownerToken), 201);
    expect(preview.id).not.toBe(keyLink.id);
    expect(await linkStatus(ws, keyLink.id)).toBe("pending");
    // The list tells them apart (docs/api/launch.md#listing-links): the Links screen's default.
    const listed = async (query: string) =>
      (
        await expectJson<{ data: { id: string }[] }>(
          await call("GET", `/v1/manage/links${query}`, { token: ws.ownerToken }),
          200,
        )
      ).data.map((link) => link.id);
    expect(await listed("?preview=false")).toEqual([keyLink.id]);
    expect(await listed("?preview=true")).toEqual([preview.id]);
    expect(await listed("")).toEqual([preview.id, keyLink.id]);
    expect(await listed("?preview=false&status=pending")).toEqual([keyLink.id]);
    expect(
      (await call("GET", "/v1/manage/links?preview=no", { token: ws.ownerToken })).status,
    ).toBe(400);
    const cookie = await sessionCookie(ws.ownerToken);
    const page = await withSession(cookie, "GET", `/app/preview/${keyLink.id}`);
    expect(page.status).toBe(404);
  });

  it("applies the launch rules: parameters, the channel, the body", async () => {
    const ws = await seedWorkspace();
    const missing = await ask(ws, ws.ownerToken, {});
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({
      error: { code: "invalid_parameters", details: [{ code: "missing_required", name: "plan" }] },
    });
    const proto = await call("POST", previewPath(ws), {
      token: ws.ownerToken,
      body: '{"parameters":{"plan":"x","__proto__":{"vip":true}}}',
      headers: { "content-type": "application/json" },
    });
    expect(proto.status).toBe(400);
    expect(await proto.json()).toMatchObject({
      error: { details: [{ code: "unknown_parameter", name: "__proto__" }] },
    });
    const unknownField = await ask(ws, ws.ownerToken, { parameters: { plan: "x" }, flowId: "x" });
    expect(await errorCode(unknownField)).toBe("invalid_request");
    const noChannel = await call("POST", previewPath(ws, "ch_missing"), {
      token: ws.ownerToken,
      body: {},
    });
    expect(noChannel.status).toBe(404);
    expect(await errorCode(noChannel)).toBe("not_found");
    const responder = await expectJson<{ id: string }>(
      await call("POST", "/v1/manage/agents", {
        token: ws.ownerToken,
        body: { name: "Other", mode: "responder" },
      }),
      201,
    );
    const wrongAgent = await call("POST", previewPath(ws, ws.channelId, responder.id), {
      token: ws.ownerToken,
      body: {},
    });
    expect(wrongAgent.status).toBe(404);
  });

  it("takes a member token or the session (with the dashboard's headers), never a widget key", async () => {
    const ws = await seedWorkspace();
    const none = await call("POST", previewPath(ws), { body: {} });
    expect(none.status).toBe(401);
    expect(await errorCode(none)).toBe("invalid_key");
    const key = await call("POST", previewPath(ws), { token: ws.widgetKey, body: {} });
    expect(key.status).toBe(403);
    expect(await errorCode(key)).toBe("insufficient_scope");

    const pat = await invite(ws, "Pat");
    const cookie = await sessionCookie(pat.token);
    const body = { parameters: { plan: "basic" } };
    const bySession = await withSession(cookie, "POST", previewPath(ws), {
      body,
      headers: DASHBOARD_HEADERS,
    });
    const preview = await expectJson<Preview>(bySession, 201);
    expect(preview.participant.name).toBe("Pat");
    const forged = await withSession(cookie, "POST", previewPath(ws), {
      body,
      headers: { origin: ORIGIN },
    });
    expect(forged.status).toBe(403);
    expect(await errorCode(forged)).toBe("cross_site_request");
    const crossSite = await withSession(cookie, "POST", previewPath(ws), {
      body,
      headers: { ...DASHBOARD_HEADERS, origin: "https://evil.example" },
    });
    expect(await errorCode(crossSite)).toBe("cross_site_request");
  });

  it("counts new links against the member's own rate limit: 429 with Retry-After past 120 a minute", async () => {
    const ws = await seedWorkspace();
    const body = { parameters: { plan: "basic" }, restart: true };
    for (let i = 0; i < 120; i++) await expectJson(await ask(ws, ws.ownerToken, body), 201);
    const refused = await ask(ws, ws.ownerToken, body);
    expect(refused.status).toBe(429);
    expect(await errorCode(refused)).toBe("rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // Another member's previews, and the workspace's widget key, are counted apart.
    const pat = await invite(ws, "Pat");
    await expectJson(await ask(ws, pat.token, body), 201);
    await expectJson(
      await call("POST", "/v1/widget/launches", { token: ws.widgetKey, body: launchBody(ws) }),
      201,
    );
  });
});

describe("GET /app/preview/{linkId}", () => {
  it("shows the member's own preview: the embed tag on a stand-in page, under its own policy", async () => {
    const ws = await seedWorkspace();
    const preview = await expectJson<Preview>(await ask(ws, ws.ownerToken), 201);
    const cookie = await sessionCookie(ws.ownerToken);
    const page = await withSession(cookie, "GET", `/app/preview/${preview.id}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.headers.get("cache-control")).toBe("no-store");
    const policy = page.headers.get("content-security-policy") ?? "";
    expect(policy.split("; ")).toEqual([
      "default-src 'none'",
      `script-src 'self' ${ORIGIN}`,
      "style-src 'self'",
      `connect-src ${ORIGIN}`,
      "img-src 'self' data:",
      `frame-src 'self' ${ORIGIN}`,
      "frame-ancestors 'self'",
      "base-uri 'none'",
      "form-action 'none'",
    ]);
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    const html = await page.text();
    expect(html).toContain(preview.embedHtml);
    expect(html).toContain("as Olga Owner.");
    expect(html).not.toMatch(/<script>|<style|style=/);

    // The dashboard may frame it: its own policy allows same-origin frames.
    const shell = await withSession(cookie, "GET", "/app/agents");
    expect(shell.headers.get("content-security-policy")).toContain("frame-src 'self'");
  });

  it("is nobody else's: another member 404, no session to sign-in, an unknown id 404", async () => {
    const ws = await seedWorkspace();
    const preview = await expectJson<Preview>(await ask(ws, ws.ownerToken), 201);
    const pat = await invite(ws, "Pat");
    const theirs = await withSession(
      await sessionCookie(pat.token),
      "GET",
      `/app/preview/${preview.id}`,
    );
    expect(theirs.status).toBe(404);
    expect(await theirs.text()).not.toContain(preview.token);
    const other = await seedWorkspace();
    const elsewhere = await withSession(
      await sessionCookie(other.ownerToken),
      "GET",
      `/app/preview/${preview.id}`,
    );
    expect(elsewhere.status).toBe(404);
    const anonymous = await exports.default.fetch(
      new Request(`${ORIGIN}/app/preview/${preview.id}`, { redirect: "manual" }),
    );
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get("location")).toBe("/sign-in");
    const unknown = await withSession(
      await sessionCookie(ws.ownerToken),
      "GET",
      "/app/preview/lnk_x",
    );
    expect(unknown.status).toBe(404);
  });
});
