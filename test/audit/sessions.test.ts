/**
 * Signing in and out of the dashboard is in the audit log (docs/security.md#audit-log): the
 * sign-in pages' form posts are no operation of the OpenAPI document, so they are checked here.
 * A sign-in names how it was made (the sign-in link's record or the passkey), a sign-out the
 * session it ended; a sign-in or sign-out that did nothing writes nothing.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SIGN_IN } from "../../src/auth/sessions";
import { call, expectJson, ORIGIN, seedWorkspace, type Workspace } from "../helpers/api";
import { signInLinkToken } from "../helpers/session";
import { assertionResponse, newSoftPasskey, registrationResponse } from "../helpers/webauthn";

type Entry = {
  action: string;
  actor: { type: string; id: string; name?: string };
  target: { type: string; id: string };
  ip: string | null;
  userAgent: string | null;
};

const FROM = {
  "cf-connecting-ip": "2001:db8:85a3:8d3:1319:8a2e:370:7348",
  "user-agent": "Browser/1",
};

const post = (path: string, body: BodyInit, headers: Record<string, string>) =>
  exports.default.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: "POST",
      headers: { origin: ORIGIN, ...FROM, ...headers },
      body,
      redirect: "manual",
    }),
  );

async function log(ws: Workspace): Promise<Entry[]> {
  const page = await expectJson<{ data: Entry[] }>(
    await call("GET", "/v1/manage/audit-log?limit=100", { token: ws.ownerToken }),
    200,
  );
  return page.data;
}

/** The session cookie a sign-in answer set, or "". */
const cookieOf = (response: Response) =>
  (response.headers.get("set-cookie") ?? "").match(new RegExp(`${SIGN_IN.cookie}=([^;]+)`))?.[1] ??
  "";

describe("signing in and out", () => {
  it("records a sign-in with a link, naming the link's record, and a sign-out, naming the session", async () => {
    const ws = await seedWorkspace();
    const link = await expectJson<{ url: string }>(
      await call("POST", "/v1/manage/sign-in-links", { token: ws.ownerToken, body: {} }),
      201,
    );
    const form = (token: string) => new URLSearchParams({ token });
    const signIn = await post("/sign-in", form(signInLinkToken(link.url)), {
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(signIn.status).toBe(303);
    const cookie = cookieOf(signIn);
    // Used once: the second try signs no one in and writes nothing.
    const again = await post("/sign-in", form(signInLinkToken(link.url)), {
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(again.status).toBe(410);
    const signOut = () => post("/sign-out", "", { cookie: `${SIGN_IN.cookie}=${cookie}` });
    expect((await signOut()).status).toBe(200);
    // Its session ended, the same cookie signs nothing out again and writes nothing.
    expect((await signOut()).status).toBe(200);

    const entries = await log(ws);
    const sessionEntries = entries.filter((entry) => entry.action.startsWith("session."));
    // One each: the link used again and the second sign-out wrote nothing.
    expect(sessionEntries.map((entry) => entry.action).sort()).toEqual([
      "session.signed_in",
      "session.signed_out",
    ]);
    const inn = entries.find((entry) => entry.action === "session.signed_in");
    const out = entries.find((entry) => entry.action === "session.signed_out");
    const owner = { type: "member", id: ws.ownerId, name: "Olga Owner" };
    const network = { ip: "2001:db8:85a3::/48", userAgent: "Browser/1" };
    expect(inn).toMatchObject({
      action: "session.signed_in",
      actor: owner,
      target: { type: "sign_in_link", id: expect.stringMatching(/^sil_/) },
      ...network,
    });
    expect(out).toMatchObject({
      action: "session.signed_out",
      actor: owner,
      target: { type: "session", id: expect.stringMatching(/^dss_/) },
      ...network,
    });
  });

  it("records a sign-in with a passkey, naming the passkey", async () => {
    const ws = await seedWorkspace();
    const passkey = await newSoftPasskey();
    const ceremony = await expectJson<{ challengeId: string; options: { challenge: string } }>(
      await call("POST", "/v1/manage/passkeys/options", { token: ws.ownerToken }),
      200,
    );
    const added = await expectJson<{ id: string }>(
      await call("POST", "/v1/manage/passkeys", {
        token: ws.ownerToken,
        body: {
          challengeId: ceremony.challengeId,
          name: "Laptop",
          response: await registrationResponse(ceremony.options, passkey),
        },
      }),
      201,
    );
    const json = { "content-type": "application/json", "x-requested-with": "test" };
    const options = await expectJson<{ challengeId: string; options: { challenge: string } }>(
      await post("/sign-in/passkey/options", "{}", json),
      200,
    );
    const body = JSON.stringify({
      challengeId: options.challengeId,
      response: await assertionResponse(options.options, passkey),
    });
    const signedIn = await post("/sign-in/passkey", body, json);
    expect(signedIn.status).toBe(200);
    expect(cookieOf(signedIn)).not.toBe("");

    const entries = await log(ws);
    const add = entries.find((entry) => entry.action === "passkey.added");
    const inn = entries.find((entry) => entry.action === "session.signed_in");
    expect(add).toMatchObject({
      action: "passkey.added",
      target: { type: "passkey", id: added.id },
    });
    expect(inn).toMatchObject({
      action: "session.signed_in",
      actor: { type: "member", id: ws.ownerId, name: "Olga Owner" },
      target: { type: "passkey", id: added.id },
      ip: "2001:db8:85a3::/48",
      userAgent: "Browser/1",
    });
  });
});
