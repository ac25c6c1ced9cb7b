import { env } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { keyring, openSecret, secretAad } from "../../src/platform/secret-box";
import { loadSecretValues } from "../../src/workflows/secrets/secrets";
import { call, errorCode, expectJson, seedWorkspace } from "../helpers/api";

type Listed = { data: { name: string; createdAt: string; updatedAt: string }[] };
type ErrorBody = { error: { code: string; details: { field: string; code: string }[] } };

const put = (token: string, name: string, body: unknown) =>
  call("PUT", `/v1/manage/secrets/${name}`, { token, body });
const list = async (token: string) =>
  expectJson<Listed>(await call("GET", "/v1/manage/secrets", { token }), 200);

async function storedCiphertext(workspaceId: string, name: string): Promise<string | undefined> {
  const row = await env.DB.prepare(
    "SELECT ciphertext FROM secrets WHERE workspace_id = ? AND name = ?",
  )
    .bind(workspaceId, name)
    .first<{ ciphertext: string }>();
  return row?.ciphertext;
}

describe("workspace secrets (docs/security.md, docs/api/manage.md)", () => {
  it("creates, replaces and lists names only, never the value", async () => {
    const ws = await seedWorkspace();
    const value = "sk_live_first_value_1234567890";
    expect((await put(ws.ownerToken, "STRIPE_KEY", { value })).status).toBe(204);
    expect((await put(ws.ownerToken, "A_TOKEN", { value: "other" })).status).toBe(204);
    const first = await list(ws.ownerToken);
    expect(first.data.map((s) => s.name)).toEqual(["A_TOKEN", "STRIPE_KEY"]);
    const created = first.data[1];
    expect(created?.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const replaced = "sk_live_second_value_0987654321";
    expect((await put(ws.ownerToken, "STRIPE_KEY", { value: replaced })).status).toBe(204);
    const response = await call("GET", "/v1/manage/secrets", { token: ws.ownerToken });
    const text = await response.text();
    expect(text).not.toContain(value);
    expect(text).not.toContain(replaced);
    const after = (JSON.parse(text) as Listed).data.find((s) => s.name === "STRIPE_KEY");
    expect(Object.keys(after ?? {}).sort()).toEqual(["createdAt", "name", "updatedAt"]);
    expect(after?.createdAt).toBe(created?.createdAt);
    expect(Date.parse(after?.updatedAt ?? "")).toBeGreaterThanOrEqual(
      Date.parse(created?.updatedAt ?? ""),
    );

    expect(await loadSecretValues(drizzle(env.DB), await keyring(env), ws.workspaceId)).toEqual({
      A_TOKEN: "other",
      STRIPE_KEY: replaced,
    });
  });

  it("stores only AES-GCM ciphertext bound to workspace and name", async () => {
    const ws = await seedWorkspace();
    const value = "plaintext-that-must-not-be-stored";
    expect((await put(ws.ownerToken, "DB_PASSWORD", { value })).status).toBe(204);
    const ciphertext = await storedCiphertext(ws.workspaceId, "DB_PASSWORD");
    expect(ciphertext).toBeDefined();
    expect(ciphertext).not.toContain(value);
    expect(atob(ciphertext?.split(".")[2] ?? "")).not.toContain(value);
    const key = await keyring(env);
    expect(await openSecret(key, ciphertext ?? "", secretAad(ws.workspaceId, "DB_PASSWORD"))).toBe(
      value,
    );

    // A ciphertext copied under another name does not open (AAD), so loading the workspace fails.
    await env.DB.prepare(
      "INSERT INTO secrets (workspace_id, name, ciphertext, created_at, updated_at) VALUES (?, 'MOVED', ?, 0, 0)",
    )
      .bind(ws.workspaceId, ciphertext)
      .run();
    await expect(
      openSecret(key, ciphertext ?? "", secretAad(ws.workspaceId, "MOVED")),
    ).rejects.toThrow();
    await expect(loadSecretValues(drizzle(env.DB), key, ws.workspaceId)).rejects.toThrow(
      /could not be decrypted/,
    );
  });

  it("deletes with 204, then 404 not_found; other workspaces see nothing", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    expect((await put(ws.ownerToken, "WEBHOOK_SECRET", { value: "whsec_1" })).status).toBe(204);
    expect((await list(other.ownerToken)).data).toEqual([]);
    const foreign = await call("DELETE", "/v1/manage/secrets/WEBHOOK_SECRET", {
      token: other.ownerToken,
    });
    expect(foreign.status).toBe(404);

    const deleted = await call("DELETE", "/v1/manage/secrets/WEBHOOK_SECRET", {
      token: ws.ownerToken,
    });
    expect(deleted.status).toBe(204);
    expect((await list(ws.ownerToken)).data).toEqual([]);
    const again = await call("DELETE", "/v1/manage/secrets/WEBHOOK_SECRET", {
      token: ws.ownerToken,
    });
    expect(again.status).toBe(404);
    expect(await errorCode(again)).toBe("not_found");
  });

  it("lets members list but not write", async () => {
    const ws = await seedWorkspace();
    const member = await expectJson<{ memberToken: string }>(
      await call("POST", "/v1/manage/members", {
        token: ws.ownerToken,
        body: { email: "reader@example.com", name: "Rita Reader", role: "member" },
      }),
      201,
    );
    const denied = await put(member.memberToken, "API_KEY", { value: "x" });
    expect(denied.status).toBe(403);
    expect(await errorCode(denied)).toBe("insufficient_scope");
    expect((await put(ws.ownerToken, "API_KEY", { value: "x" })).status).toBe(204);
    expect((await list(member.memberToken)).data.map((s) => s.name)).toEqual(["API_KEY"]);
    const deleteDenied = await call("DELETE", "/v1/manage/secrets/API_KEY", {
      token: member.memberToken,
    });
    expect(deleteDenied.status).toBe(403);
  });

  it("refuses a bad name and a bad body with 400 invalid_request and details", async () => {
    const ws = await seedWorkspace();
    for (const name of ["lower_case", "1STARTS_WITH_DIGIT", "HAS-DASH", `A${"B".repeat(64)}`]) {
      const bad = await expectJson<ErrorBody>(await put(ws.ownerToken, name, { value: "x" }), 400);
      expect(bad.error.code).toBe("invalid_request");
      expect(bad.error.details.map((d) => d.field)).toEqual(["name"]);
    }
    expect((await put(ws.ownerToken, `A${"B".repeat(63)}`, { value: "x" })).status).toBe(204);

    const missing = await expectJson<ErrorBody>(await put(ws.ownerToken, "OK_NAME", {}), 400);
    expect(missing.error.details).toMatchObject([{ field: "value", code: "required" }]);
    const extra = await expectJson<ErrorBody>(
      await put(ws.ownerToken, "OK_NAME", { value: "x", note: "y" }),
      400,
    );
    expect(extra.error.details).toMatchObject([{ field: "note", code: "unknown_field" }]);
    const tooLong = await expectJson<ErrorBody>(
      await put(ws.ownerToken, "OK_NAME", { value: "x".repeat(16_385) }),
      400,
    );
    expect(tooLong.error.details).toMatchObject([{ field: "value", code: "out_of_range" }]);
    const empty = await expectJson<ErrorBody>(
      await put(ws.ownerToken, "OK_NAME", { value: "" }),
      400,
    );
    expect(empty.error.details).toMatchObject([{ field: "value", code: "out_of_range" }]);
    expect((await put(ws.ownerToken, "OK_NAME", { value: "x".repeat(16_384) })).status).toBe(204);
    expect(
      (await call("DELETE", "/v1/manage/secrets/bad-name", { token: ws.ownerToken })).status,
    ).toBe(400);
  });
});
