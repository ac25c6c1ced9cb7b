/**
 * Event endpoints (docs/events.md#event-endpoints): registered by owners and admins, the `whsec_`
 * secret shown once and stored only sealed, URLs checked (https, no credentials), changed,
 * rotated (the old secret kept 24 h) and deleted.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, expectJson, ORIGIN, seedWorkspace } from "../helpers/api";

type Endpoint = {
  id: string;
  url: string;
  events: string[];
  status: string;
  includeTranscript: boolean;
  secret?: string;
};

const PATH = "/v1/manage/event-endpoints";

describe("event endpoints", () => {
  it("registers one with a whsec_ secret shown once, and stores only its ciphertext", async () => {
    const ws = await seedWorkspace();
    const created = await expectJson<Endpoint>(
      await call("POST", PATH, {
        token: ws.ownerToken,
        body: { url: "https://example.com/hooks", description: "CRM" },
      }),
      201,
    );
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.events).toEqual([
      "link.created",
      "conversation.started",
      "conversation.ended",
      "link.expired",
      "link.revoked",
      "conversation.analyzed",
    ]);
    expect(created).toMatchObject({ status: "enabled", includeTranscript: false });
    const listed = await expectJson<{ data: Endpoint[] }>(
      await call("GET", PATH, { token: ws.ownerToken }),
      200,
    );
    expect(listed.data.map((endpoint) => endpoint.id)).toEqual([created.id]);
    expect(JSON.stringify(listed)).not.toContain("whsec_");
    const rows = await env.DB.prepare("SELECT * FROM event_endpoints WHERE id = ?")
      .bind(created.id)
      .all();
    expect(JSON.stringify(rows.results)).not.toContain((created.secret as string).slice(6));
  });

  it.each([
    ["not a URL", "example.com/hooks"],
    ["another scheme", "ftp://example.com/hooks"],
    ["credentials in the URL", "https://user:pass@example.com/hooks"],
  ])("refuses %s with 400 invalid_request, even in local development", async (_label, url) => {
    const ws = await seedWorkspace();
    const body = await expectJson<{ error: { code: string; details: { field: string }[] } }>(
      await call("POST", PATH, { token: ws.ownerToken, body: { url } }),
      400,
    );
    expect([body.error.code, body.error.details[0]?.field]).toEqual(["invalid_request", "url"]);
  });

  it("refuses localhost where the Worker does not allow it (the deployed default)", async () => {
    const ws = await seedWorkspace();
    const app = (await import("../../src/index")).default;
    for (const url of [
      "http://localhost:9000/hooks",
      "https://localhost/hooks",
      "https://[::1]/x",
    ]) {
      const request = new Request(`${ORIGIN}/v1/manage/event-endpoints`, {
        method: "POST",
        headers: { authorization: `Bearer ${ws.ownerToken}`, "content-type": "application/json" },
        body: JSON.stringify({ url }),
      });
      const allowed = { ...env, ALLOW_PRIVATE_OUTBOUND: "true" };
      const deployed = { ...env, ALLOW_PRIVATE_OUTBOUND: undefined };
      const refused = await app.fetch(request.clone(), deployed);
      expect((await expectJson<{ error: { code: string } }>(refused, 400)).error.code).toBe(
        "invalid_request",
      );
      expect((await app.fetch(request, allowed)).status, url).toBe(201);
    }
  });

  it("changes, rotates, deletes; members only read", async () => {
    const ws = await seedWorkspace();
    const created = await expectJson<Endpoint>(
      await call("POST", PATH, {
        token: ws.ownerToken,
        body: { url: "https://example.com/a", events: ["link.created", "link.created"] },
      }),
      201,
    );
    expect(created.events).toEqual(["link.created"]);
    const changed = await expectJson<Endpoint>(
      await call("PATCH", `${PATH}/${created.id}`, {
        token: ws.ownerToken,
        body: { status: "disabled", includeTranscript: true, url: "https://example.com/b" },
      }),
      200,
    );
    expect(changed).toMatchObject({
      status: "disabled",
      includeTranscript: true,
      url: "https://example.com/b",
    });
    const rotated = await expectJson<Endpoint>(
      await call("POST", `${PATH}/${created.id}/rotate-secret`, { token: ws.ownerToken }),
      200,
    );
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    const row = await env.DB.prepare(
      "SELECT previous_secret_sealed, previous_secret_expires_at FROM event_endpoints WHERE id = ?",
    )
      .bind(created.id)
      .first<{ previous_secret_sealed: string | null; previous_secret_expires_at: number }>();
    expect(row?.previous_secret_sealed).toBeTruthy();
    expect(row?.previous_secret_expires_at).toBeGreaterThan(Date.now() + 23 * 3_600_000);

    const member = await expectJson<{ memberToken: string }>(
      await call("POST", "/v1/manage/members", {
        token: ws.ownerToken,
        body: { email: "reader@example.com", name: "R", role: "member" },
      }),
      201,
    );
    expect((await call("GET", `${PATH}/${created.id}`, { token: member.memberToken })).status).toBe(
      200,
    );
    expect(
      (await call("DELETE", `${PATH}/${created.id}`, { token: member.memberToken })).status,
    ).toBe(403);
    expect((await call("DELETE", `${PATH}/${created.id}`, { token: ws.ownerToken })).status).toBe(
      204,
    );
    expect((await call("GET", `${PATH}/${created.id}`, { token: ws.ownerToken })).status).toBe(404);
  });
});
