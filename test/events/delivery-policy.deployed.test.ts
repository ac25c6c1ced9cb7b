/**
 * Event endpoints and deliveries under the deployed defaults (docs/security.md#outbound-requests):
 * a private or local URL is refused when registered, and the policy is checked again when each
 * delivery is sent, so an endpoint saved while private destinations were allowed (local
 * development) receives nothing once they are not: its attempts fail as `destination_not_allowed`.
 * This file runs on the runtime without ALLOW_PRIVATE_OUTBOUND.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  call,
  eventually,
  expectJson,
  ORIGIN,
  seedWorkspace,
  type Workspace,
} from "../helpers/api";
import { createLaunch } from "../helpers/chat";
import { received } from "../helpers/events";
import { ECHO_URL } from "../helpers/workflows";

const PATH = "/v1/manage/event-endpoints";
type Attempt = { responseStatus: number | null; responseBody: string };
type Delivery = { status: string; eventType: string; attempts: Attempt[] };

/** Registers an endpoint on the echo server as a Worker allowing private destinations would. */
async function registeredWhileAllowed(ws: Workspace, name: string): Promise<string> {
  const app = (await import("../../src/index")).default;
  const request = new Request(`${ORIGIN}${PATH}`, {
    method: "POST",
    headers: { authorization: `Bearer ${ws.ownerToken}`, "content-type": "application/json" },
    body: JSON.stringify({ url: `${ECHO_URL}/receiver/${name}`, events: ["link.created"] }),
  });
  const created = await expectJson<{ id: string }>(
    await app.fetch(request, { ...env, ALLOW_PRIVATE_OUTBOUND: "true" }),
    201,
  );
  return created.id;
}

describe("event endpoints deployed", () => {
  it.each([
    ["plain http", "http://example.com/hooks"],
    ["credentials in the URL", "https://user:pass@example.com/hooks"],
    ["https to a private address", "https://10.0.0.8/hooks"],
    ["https to the metadata address", "https://169.254.169.254/latest"],
    ["https to an internal name", "https://billing.internal/hooks"],
    ["https to loopback as a number", "https://2130706433/hooks"],
    ["https to IPv4-mapped loopback", "https://[::ffff:127.0.0.1]/hooks"],
    ["https to localhost with a trailing dot", "https://localhost./hooks"],
    ["https to a documentation address", "https://192.0.2.1/hooks"],
    ["not a URL", "example.com/hooks"],
    ["another scheme", "ftp://example.com/hooks"],
  ])("refuses %s with 400 invalid_request", async (_label, url) => {
    const ws = await seedWorkspace();
    const body = await expectJson<{ error: { code: string; details: { field: string }[] } }>(
      await call("POST", PATH, { token: ws.ownerToken, body: { url } }),
      400,
    );
    expect([body.error.code, body.error.details[0]?.field]).toEqual(["invalid_request", "url"]);
  });

  it("a test event to an endpoint saved while allowed sends nothing and logs why", async () => {
    const ws = await seedWorkspace();
    const name = `deployed-${crypto.randomUUID()}`;
    const endpointId = await registeredWhileAllowed(ws, name);
    const delivery = await expectJson<Delivery>(
      await call("POST", `${PATH}/${endpointId}/test`, { token: ws.ownerToken }),
      200,
    );
    expect(delivery.status).toBe("failed");
    expect(delivery.attempts).toEqual([
      expect.objectContaining({
        responseStatus: null,
        responseBody: expect.stringMatching(/^destination_not_allowed: /),
      }),
    ]);
    expect(await received({ name, endpointId, secret: "" })).toEqual([]);
  });

  it("a lifecycle event's delivery through the queue is refused the same way", async () => {
    const ws = await seedWorkspace();
    const name = `deployed-${crypto.randomUUID()}`;
    const endpointId = await registeredWhileAllowed(ws, name);
    await createLaunch(ws);
    const attempted = await eventually(async () => {
      const page = await expectJson<{ data: Delivery[] }>(
        await call("GET", `${PATH}/${endpointId}/deliveries`, { token: ws.ownerToken }),
        200,
      );
      const first = page.data[0];
      return first && first.attempts.length > 0 ? first : undefined;
    });
    expect(attempted.eventType).toBe("link.created");
    expect(attempted.attempts[0]).toMatchObject({
      responseStatus: null,
      responseBody: expect.stringMatching(/^destination_not_allowed: The address is loopback/),
    });
    expect(await received({ name, endpointId, secret: "" })).toEqual([]);
  });
});
