/**
 * What an audit entry holds (docs/security.md#audit-log): where the change came from as a
 * network, never an address, and a user agent of bounded length; nothing secret (no secret's
 * value, no token, no key); for an erasure the erasure, never the person; nothing at all for a
 * change that failed. The operator's changes outside any workspace go to the operator's own log.
 */
import { describe, expect, it } from "vitest";
import {
  call,
  createWidgetKey,
  expectJson,
  OPERATOR_TOKEN,
  seedWorkspace,
  type Workspace,
} from "../helpers/api";
import { d1Tables } from "../helpers/storage-scan";

type Entry = {
  action: string;
  actor: { type: string; id: string; name?: string };
  target: { type: string; id: string };
  ip: string | null;
  userAgent: string | null;
};

async function entries(ws: Workspace, query = ""): Promise<Entry[]> {
  const page = await expectJson<{ data: Entry[] }>(
    await call("GET", `/v1/manage/audit-log?limit=100${query}`, { token: ws.ownerToken }),
    200,
  );
  return page.data;
}
const storedLog = async () => (await d1Tables()).get("audit_log") ?? "";

describe("an audit entry", () => {
  it("keeps the client's network, never its address, and a user agent of at most 256 characters", async () => {
    const ws = await seedWorkspace();
    const cases: [Record<string, string>, string | null, string | null][] = [
      [
        { "cf-connecting-ip": "203.0.113.195", "user-agent": "curl/8.5.0" },
        "203.0.113.0/24",
        "curl/8.5.0",
      ],
      [{ "cf-connecting-ip": "2001:db8:85a3:8d3:1319:8a2e:370:7348" }, "2001:db8:85a3::/48", null],
      [{ "cf-connecting-ip": "::ffff:198.51.100.9" }, "198.51.100.0/24", null],
      [
        { "cf-connecting-ip": "not an address", "user-agent": "x".repeat(1_000) },
        null,
        "x".repeat(256),
      ],
      [{}, null, null],
    ];
    const created: string[] = [];
    for (const [headers] of cases) {
      const key = await expectJson<{ id: string }>(
        await call("POST", "/v1/manage/widget-keys", {
          token: ws.ownerToken,
          body: { name: "k" },
          headers,
        }),
        201,
      );
      created.push(key.id);
    }
    const byTarget = new Map((await entries(ws)).map((entry) => [entry.target.id, entry]));
    const seen = created.map((id) => {
      const entry = byTarget.get(id);
      return [entry?.ip, entry?.userAgent];
    });
    expect(seen).toEqual(cases.map(([, ip, userAgent]) => [ip, userAgent]));
    expect(await storedLog()).not.toContain("203.0.113.195");
  });

  it("holds nothing secret: a secret's name but never its value, no token, no key", async () => {
    const ws = await seedWorkspace();
    const value = `value-${crypto.randomUUID()}`;
    expect(
      (
        await call("PUT", "/v1/manage/secrets/STRIPE_KEY", {
          token: ws.ownerToken,
          body: { value },
        })
      ).status,
    ).toBe(204);
    const invited = await expectJson<{ member: { id: string }; memberToken: string }>(
      await call("POST", "/v1/manage/members", {
        token: ws.ownerToken,
        body: { email: "secretive@example.com", name: "S", role: "admin" },
      }),
      201,
    );
    const key = await createWidgetKey(ws);
    // A client that sends its key in the user agent does not get it into the log.
    const revoked = await call("DELETE", `/v1/manage/widget-keys/${key.id}`, {
      token: ws.ownerToken,
      headers: { "user-agent": `deploy-bot/2 (${key.key})` },
    });
    expect(revoked.status).toBe(204);
    const all = await entries(ws);
    const of = (action: string) => all.find((entry) => entry.action === action);
    const [keyEntry, memberEntry, secretEntry] = [
      of("widget_key.created"),
      of("member.invited"),
      of("secret.set"),
    ];
    expect(secretEntry).toMatchObject({
      action: "secret.set",
      target: { type: "secret", id: "STRIPE_KEY" },
    });
    expect(memberEntry).toMatchObject({
      action: "member.invited",
      target: { id: invited.member.id },
    });
    expect(keyEntry).toMatchObject({ target: { type: "widget_key", id: key.id } });
    expect(of("widget_key.revoked")?.userAgent).toBe("deploy-bot/2 ([redacted])");
    const shown = JSON.stringify(await entries(ws));
    const stored = await storedLog();
    for (const secret of [value, invited.memberToken, key.key, ws.ownerToken, "secretive@"]) {
      expect(shown).not.toContain(secret);
      expect(stored).not.toContain(secret);
    }
  });

  it("names an erasure by its id, never the person it erases", async () => {
    const ws = await seedWorkspace();
    const person = `cus_${crypto.randomUUID()}`;
    const asked = async (token: string, path: string) =>
      (
        await expectJson<{ id: string }>(
          await call("POST", path, { token, body: { externalId: person } }),
          202,
        )
      ).id;
    const byKey = await asked(ws.widgetKey, "/v1/widget/erasures");
    const byOwner = await asked(ws.ownerToken, "/v1/manage/erasures");
    const erasures = await entries(ws, "&action=erasure.requested");
    const sorted = <T extends { target: { id: string } }>(list: T[]) =>
      [...list].sort((a, b) => a.target.id.localeCompare(b.target.id));
    expect(sorted(erasures)).toMatchObject(
      sorted([
        {
          actor: { type: "member", id: ws.ownerId, name: "Olga Owner" },
          target: { type: "erasure", id: byOwner },
        },
        {
          actor: { type: "widget_key", id: ws.widgetKeyId, name: "server" },
          target: { type: "erasure", id: byKey },
        },
      ]),
    );
    expect(JSON.stringify(await entries(ws))).not.toContain(person);
    expect(await storedLog()).not.toContain(person);
  });

  it("is not written for a change that failed", async () => {
    const ws = await seedWorkspace();
    const member = await expectJson<{ memberToken: string }>(
      await call("POST", "/v1/manage/members", {
        token: ws.ownerToken,
        body: { email: `${crypto.randomUUID()}@example.com`, name: "M", role: "member" },
      }),
      201,
    );
    const before = await entries(ws);
    const failed = [
      await call("DELETE", "/v1/manage/widget-keys/wk_unknown", { token: ws.ownerToken }),
      await call("POST", "/v1/manage/widget-keys", {
        token: member.memberToken,
        body: { name: "k" },
      }),
      await call("POST", "/v1/manage/widget-keys", { token: ws.ownerToken, body: { nam: "k" } }),
      await call("POST", "/v1/manage/members", {
        token: ws.ownerToken,
        body: { email: "dup@example.com", name: "D", role: "member" },
      }),
    ];
    const again = await call("POST", "/v1/manage/members", {
      token: ws.ownerToken,
      body: { email: "dup@example.com", name: "D", role: "member" },
    });
    expect([...failed.map((r) => r.status), again.status]).toEqual([404, 403, 400, 201, 409]);
    const added = (await entries(ws)).length - before.length;
    expect(added).toBe(1); // the first invitation of dup@example.com, and nothing else
  });

  it("of the operator's changes outside any workspace goes to the operator's own log", async () => {
    const ws = await seedWorkspace();
    const reseal = await expectJson<{ id: string }>(
      await call("POST", "/v1/operator/reseal", {
        token: OPERATOR_TOKEN,
        headers: { "cf-connecting-ip": "192.0.2.44", "user-agent": "ops-script" },
      }),
      202,
    );
    expect(
      (await call("DELETE", `/v1/operator/workspaces/${ws.workspaceId}`, { token: OPERATOR_TOKEN }))
        .status,
    ).toBe(204);
    const operatorLog = async (query: string) =>
      (
        await expectJson<{ data: Entry[] }>(
          await call("GET", `/v1/operator/audit-log?limit=100${query}`, { token: OPERATOR_TOKEN }),
          200,
        )
      ).data;
    const deleted = await operatorLog("&action=workspace.deleted");
    expect(deleted.find((entry) => entry.target.id === ws.workspaceId)).toEqual({
      id: expect.stringMatching(/^aud_/),
      at: expect.any(String),
      action: "workspace.deleted",
      actor: { type: "operator", id: "operator" },
      target: { type: "workspace", id: ws.workspaceId },
      ip: null,
      userAgent: null,
    });
    const resealed = await operatorLog("&actorId=operator&action=reseal.started");
    // Asked while another call's reseal runs, the answer is that one: each call has its entry.
    const mine = (entry: Entry) =>
      entry.target.id === reseal.id && entry.userAgent === "ops-script";
    expect(resealed.find(mine)).toMatchObject({
      target: { type: "reseal", id: reseal.id },
      ip: "192.0.2.0/24",
      userAgent: "ops-script",
    });
  });
});
