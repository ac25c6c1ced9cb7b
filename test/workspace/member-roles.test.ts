/**
 * Changing a member's role (docs/api/manage.md#members): `PATCH /v1/manage/members/{id}`. Owners
 * and admins change anyone's role but the owner's; the new role applies from the next request,
 * with a member token or a dashboard session; ownership is never given.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SIGN_IN } from "../../src/auth/sessions";
import { call, errorCode, expectJson, ORIGIN, seedWorkspace, type Workspace } from "../helpers/api";
import { signInLinkToken } from "../helpers/session";

type Member = { id: string; role: string; email: string; name: string; createdAt: string };

async function invite(ws: Workspace, role: "admin" | "member") {
  return expectJson<{ member: Member; memberToken: string; signInUrl: string }>(
    await call("POST", "/v1/manage/members", {
      token: ws.ownerToken,
      body: { email: `${crypto.randomUUID()}@example.com`, name: "Pat", role },
    }),
    201,
  );
}

const setRole = (token: string, id: string, role: unknown) =>
  call("PATCH", `/v1/manage/members/${id}`, { token, body: { role } });

/** Whether `token` may write: creating a widget key is a write any admin may do. */
async function canWrite(token: string): Promise<boolean> {
  const response = await call("POST", "/v1/manage/widget-keys", { token, body: { name: "probe" } });
  if (response.status === 403) expect(await errorCode(response)).toBe("insufficient_scope");
  return response.status === 201;
}

describe("PATCH /v1/manage/members/{id}", () => {
  it("promotes a member to admin and back; the role applies from the next request", async () => {
    const ws = await seedWorkspace();
    const { member, memberToken } = await invite(ws, "member");
    expect(await canWrite(memberToken)).toBe(false);

    const promoted = await expectJson<Member>(
      await setRole(ws.ownerToken, member.id, "admin"),
      200,
    );
    expect(promoted).toEqual({ ...member, role: "admin" });
    expect(await canWrite(memberToken)).toBe(true);
    const list = await expectJson<{ data: Member[] }>(
      await call("GET", "/v1/manage/members", { token: ws.ownerToken }),
      200,
    );
    expect(list.data.find((row) => row.id === member.id)?.role).toBe("admin");

    await expectJson(await setRole(ws.ownerToken, member.id, "member"), 200);
    expect(await canWrite(memberToken)).toBe(false);
    // The same role again changes nothing and is no error.
    expect(
      (await expectJson<Member>(await setRole(ws.ownerToken, member.id, "member"), 200)).role,
    ).toBe("member");
  });

  it("lets an admin change another admin's role and step down themself", async () => {
    const ws = await seedWorkspace();
    const admin = await invite(ws, "admin");
    const other = await invite(ws, "admin");
    await expectJson(await setRole(admin.memberToken, other.member.id, "member"), 200);
    expect(await canWrite(other.memberToken)).toBe(false);
    await expectJson(await setRole(admin.memberToken, admin.member.id, "member"), 200);
    expect(await canWrite(admin.memberToken)).toBe(false);
    // Stepped down, they cannot give the role back to themself; the owner can.
    const again = await setRole(admin.memberToken, admin.member.id, "admin");
    expect(again.status).toBe(403);
    await expectJson(await setRole(ws.ownerToken, admin.member.id, "admin"), 200);
    expect(await canWrite(admin.memberToken)).toBe(true);
  });

  it("never changes the owner's role nor gives ownership", async () => {
    const ws = await seedWorkspace();
    const admin = await invite(ws, "admin");
    for (const token of [ws.ownerToken, admin.memberToken]) {
      const response = await setRole(token, ws.ownerId, "member");
      expect(response.status).toBe(409);
      expect(await errorCode(response)).toBe("cannot_change_owner");
    }
    const owner = await expectJson<{ error: { code: string; details: { field: string }[] } }>(
      await setRole(ws.ownerToken, admin.member.id, "owner"),
      400,
    );
    expect(owner.error.code).toBe("invalid_request");
    expect(owner.error.details.map((detail) => detail.field)).toEqual(["role"]);
    const extra = await call("PATCH", `/v1/manage/members/${admin.member.id}`, {
      token: ws.ownerToken,
      body: { role: "member", name: "Renamed" },
    });
    expect(extra.status).toBe(400);
    const members = await expectJson<{ data: Member[] }>(
      await call("GET", "/v1/manage/members", { token: ws.ownerToken }),
      200,
    );
    expect(members.data.map((row) => row.role)).toEqual(["owner", "admin"]);
  });

  it("refuses members, and answers 404 for removed, unknown and other workspaces' members", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const reader = await invite(ws, "member");
    const target = await invite(ws, "admin");
    const refused = await setRole(reader.memberToken, target.member.id, "member");
    expect(refused.status).toBe(403);
    expect(await errorCode(refused)).toBe("insufficient_scope");

    expect((await setRole(other.ownerToken, target.member.id, "member")).status).toBe(404);
    expect((await setRole(ws.ownerToken, "mem_nope", "member")).status).toBe(404);
    expect(
      (await call("DELETE", `/v1/manage/members/${target.member.id}`, { token: ws.ownerToken }))
        .status,
    ).toBe(204);
    const removed = await setRole(ws.ownerToken, target.member.id, "admin");
    expect(removed.status).toBe(404);
    expect(await errorCode(removed)).toBe("not_found");
  });

  it("applies to a signed-in dashboard session at once", async () => {
    const ws = await seedWorkspace();
    const admin = await invite(ws, "admin");
    const token = signInLinkToken(admin.signInUrl);
    const posted = await exports.default.fetch(
      new Request(`${ORIGIN}/sign-in`, {
        method: "POST",
        headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token }),
        redirect: "manual",
      }),
    );
    expect(posted.status).toBe(303);
    const cookie = (posted.headers.get("set-cookie") ?? "").split(";")[0] as string;
    expect(cookie.startsWith(`${SIGN_IN.cookie}=`)).toBe(true);
    const write = () =>
      exports.default.fetch(
        new Request(`${ORIGIN}/v1/manage/secrets/ROLE_PROBE`, {
          method: "PUT",
          headers: {
            cookie,
            origin: ORIGIN,
            "x-requested-with": "agent-edge-dashboard",
            "content-type": "application/json",
          },
          body: JSON.stringify({ value: "v" }),
        }),
      );
    expect((await write()).status).toBe(204);
    await expectJson(await setRole(ws.ownerToken, admin.member.id, "member"), 200);
    expect((await write()).status).toBe(403);
  });
});
