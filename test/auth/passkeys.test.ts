/**
 * Passkeys' refusals (docs/dashboard.md#passkeys); the whole ceremony with a real authenticator
 * is in test/browser/dashboard.spec.ts (Chromium's virtual authenticator). Challenges are used
 * once and for their purpose; unknown credentials and cross-site calls are refused; a member sees
 * and deletes only their own passkeys.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, errorCode, expectJson, ORIGIN, seedWorkspace } from "../helpers/api";

const browserPost = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  exports.default.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: "POST",
      headers: {
        origin: ORIGIN,
        "x-requested-with": "test",
        "content-type": "application/json",
        ...headers,
      },
      body: JSON.stringify(body),
    }),
  );

const forged = (id: string) => ({
  id,
  rawId: id,
  type: "public-key",
  response: { clientDataJSON: "e30", authenticatorData: "AA", signature: "AA" },
  clientExtensionResults: {},
});

describe("passkeys", () => {
  it("hands out registration options for this origin, used once", async () => {
    const ws = await seedWorkspace();
    const ceremony = await expectJson<{
      challengeId: string;
      options: { rp: { id: string }; challenge: string; user: { name: string } };
    }>(await call("POST", "/v1/manage/passkeys/options", { token: ws.ownerToken }), 200);
    expect(ceremony.options.rp.id).toBe(new URL(ORIGIN).hostname);
    expect(ceremony.options.user.name).toMatch(/@example\.com$/);
    const register = (challengeId: string) =>
      call("POST", "/v1/manage/passkeys", {
        token: ws.ownerToken,
        body: { challengeId, name: "Laptop", response: forged("abc") },
      });
    expect(await errorCode(await register(ceremony.challengeId))).toBe("passkey_refused");
    // The challenge is gone after one try, whatever its outcome.
    expect(await errorCode(await register(ceremony.challengeId))).toBe("passkey_refused");
    expect((await call("POST", "/v1/manage/passkeys/options")).status).toBe(401);
  });

  it("signs in only from this origin, with a sign-in challenge and a known passkey", async () => {
    expect(
      (await browserPost("/sign-in/passkey/options", {}, { origin: "https://evil.test" })).status,
    ).toBe(403);
    const ceremony = await expectJson<{ challengeId: string; options: { rpId: string } }>(
      await browserPost("/sign-in/passkey/options", {}),
      200,
    );
    expect(ceremony.options.rpId).toBe(new URL(ORIGIN).hostname);
    // Malformed bodies are refused, never a 500.
    for (const body of [null, { challengeId: ceremony.challengeId, response: { id: 5 } }, []]) {
      const answer = await browserPost("/sign-in/passkey", body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }
    const unknown = await browserPost("/sign-in/passkey", {
      challengeId: ceremony.challengeId,
      response: forged("never-registered"),
    });
    expect(unknown.status).toBe(400);
    expect(await errorCode(unknown)).toBe("passkey_refused");
    expect(unknown.headers.get("set-cookie")).toBeNull();
    // A registration challenge cannot be used to sign in.
    const ws = await seedWorkspace();
    const registration = await expectJson<{ challengeId: string }>(
      await call("POST", "/v1/manage/passkeys/options", { token: ws.ownerToken }),
      200,
    );
    const crossed = await browserPost("/sign-in/passkey", {
      challengeId: registration.challengeId,
      response: forged("x"),
    });
    expect(await errorCode(crossed)).toBe("passkey_refused");
  });

  it("lists and deletes only the member's own passkeys", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    await env.DB.prepare(
      `INSERT INTO passkeys (id, member_id, workspace_id, credential_id, public_key, counter,
        transports, name, created_at) VALUES (?, ?, ?, ?, 'AA', 0, '[]', 'Phone', ?)`,
    )
      .bind("pk_test_own", ws.ownerId, ws.workspaceId, `cred-${ws.ownerId}`, Date.now())
      .run();
    const mine = await expectJson<{ data: { id: string; name: string }[] }>(
      await call("GET", "/v1/manage/passkeys", { token: ws.ownerToken }),
      200,
    );
    expect(mine.data.map((passkey) => passkey.name)).toEqual(["Phone"]);
    const theirs = await expectJson<{ data: unknown[] }>(
      await call("GET", "/v1/manage/passkeys", { token: other.ownerToken }),
      200,
    );
    expect(theirs.data).toEqual([]);
    const stolen = await call("DELETE", "/v1/manage/passkeys/pk_test_own", {
      token: other.ownerToken,
    });
    expect(await errorCode(stolen)).toBe("not_found");
    const deleted = await call("DELETE", "/v1/manage/passkeys/pk_test_own", {
      token: ws.ownerToken,
    });
    expect(deleted.status).toBe(204);
  });
});
