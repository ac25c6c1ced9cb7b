/** The management API (docs/api/manage.md): the operator's workspaces, members and roles, widget keys. */
import { describe, expect, it } from "vitest";
import { call, errorCode, expectJson, OPERATOR_TOKEN, seedWorkspace } from "../helpers/api";

describe("operator: workspaces", () => {
  it("creates a workspace with its owner only with the operator token", async () => {
    const body = { name: "Acme Inc", owner: { email: "Boss@Acme.example", name: "Boss" } };
    expect((await call("POST", "/v1/operator/workspaces", { body })).status).toBe(401);
    expect((await call("POST", "/v1/operator/workspaces", { token: "wrong", body })).status).toBe(
      401,
    );
    const created = await expectJson<Record<string, Record<string, string>>>(
      await call("POST", "/v1/operator/workspaces", { token: OPERATOR_TOKEN, body }),
      201,
    );
    expect(created.workspace).toMatchObject({
      id: expect.stringMatching(/^ws_/),
      name: "Acme Inc",
    });
    expect(created.workspace?.slug).toMatch(/^acme-inc/);
    expect(created.member).toMatchObject({ role: "owner", email: "boss@acme.example" });
    expect(created.memberToken).toMatch(/^mt_[0-9A-Za-z]{38}$/);
  });

  it("refuses a taken slug with 409 and a malformed body with every problem", async () => {
    const body = {
      name: "Slugged",
      slug: "slugged-ws",
      owner: { email: "a@b.example", name: "A" },
    };
    expect(
      (await call("POST", "/v1/operator/workspaces", { token: OPERATOR_TOKEN, body })).status,
    ).toBe(201);
    const again = await call("POST", "/v1/operator/workspaces", { token: OPERATOR_TOKEN, body });
    expect(again.status).toBe(409);
    expect(await errorCode(again)).toBe("slug_taken");
    const bad = await expectJson<{ error: { details: { field: string }[] } }>(
      await call("POST", "/v1/operator/workspaces", {
        token: OPERATOR_TOKEN,
        body: { slug: "Bad Slug", owner: { email: "nope" } },
      }),
      400,
    );
    expect(bad.error.details.map((d) => d.field).sort()).toEqual([
      "name",
      "owner.email",
      "owner.name",
      "slug",
    ]);
  });
});

describe("members and roles (docs/api/manage.md)", () => {
  it("lets owners and admins write, members only read", async () => {
    const ws = await seedWorkspace();
    const member = await expectJson<{ memberToken: string }>(
      await call("POST", "/v1/manage/members", {
        token: ws.ownerToken,
        body: { email: "m@example.com", name: "Mo Member", role: "member" },
      }),
      201,
    );
    expect((await call("GET", "/v1/manage/agents", { token: member.memberToken })).status).toBe(
      200,
    );
    expect(
      (await call("GET", "/v1/manage/widget-keys", { token: member.memberToken })).status,
    ).toBe(200);
    const denied = await call("POST", "/v1/manage/widget-keys", {
      token: member.memberToken,
      body: { name: "x" },
    });
    expect(denied.status).toBe(403);
    expect(await errorCode(denied)).toBe("insufficient_scope");
    expect(
      (
        await call("POST", "/v1/manage/agents", {
          token: member.memberToken,
          body: { name: "x", mode: "responder" },
        })
      ).status,
    ).toBe(403);
    const members = await expectJson<{ data: { role: string }[] }>(
      await call("GET", "/v1/manage/members", { token: member.memberToken }),
      200,
    );
    expect(members.data.map((m) => m.role)).toEqual(["owner", "member"]);
  });

  it("refuses a duplicate email, removing the owner, and unknown members", async () => {
    const ws = await seedWorkspace();
    const body = { email: "dup@example.com", name: "D", role: "admin" };
    expect((await call("POST", "/v1/manage/members", { token: ws.ownerToken, body })).status).toBe(
      201,
    );
    const dup = await call("POST", "/v1/manage/members", {
      token: ws.ownerToken,
      body: { ...body, email: "DUP@example.com" },
    });
    expect(dup.status).toBe(409);
    const owner = await call("DELETE", `/v1/manage/members/${ws.ownerId}`, {
      token: ws.ownerToken,
    });
    expect(owner.status).toBe(409);
    expect(await errorCode(owner)).toBe("cannot_remove_owner");
    expect(
      (await call("DELETE", "/v1/manage/members/mem_nope", { token: ws.ownerToken })).status,
    ).toBe(404);
  });
});

describe("widget keys (docs/security.md, docs/api/manage.md)", () => {
  it("shows the key once, in the checksummed format, and lists keys without it", async () => {
    const ws = await seedWorkspace();
    const created = await expectJson<Record<string, unknown>>(
      await call("POST", "/v1/manage/widget-keys", {
        token: ws.ownerToken,
        body: { name: "Backend", flowIds: [ws.agentId], expiresAt: "2099-01-01T00:00:00.000Z" },
      }),
      201,
    );
    expect(created).toMatchObject({
      id: expect.stringMatching(/^wk_[0-9A-Za-z]{22}$/),
      name: "Backend",
      key: expect.stringMatching(/^wk_live_[0-9A-Za-z]{38}$/),
      flowIds: [ws.agentId],
      expiresAt: "2099-01-01T00:00:00.000Z",
      createdBy: ws.ownerId,
    });
    expect(created.keyPrefix).toBe((created.key as string).slice(0, 12));
    const listResponse = await call("GET", "/v1/manage/widget-keys", { token: ws.ownerToken });
    const text = await listResponse.clone().text();
    expect(text).not.toContain(created.key as string);
    const list = await expectJson<{ data: Record<string, unknown>[] }>(listResponse, 200);
    expect(list.data.map((k) => k.id)).toContain(created.id);
    for (const key of list.data) expect(key).not.toHaveProperty("key");
  });

  it("refuses unknown agents and a past expiry, listing both", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const response = await call("POST", "/v1/manage/widget-keys", {
      token: ws.ownerToken,
      body: { name: "x", flowIds: [ws.agentId, other.agentId], expiresAt: "2001-01-01T00:00:00Z" },
    });
    const body = await expectJson<{ error: { details: { field: string; code: string }[] } }>(
      response,
      400,
    );
    expect(body.error.details.map((d) => [d.field, d.code])).toEqual([
      ["flowIds.1", "unknown_agent"],
      ["expiresAt", "out_of_range"],
    ]);
  });
});
