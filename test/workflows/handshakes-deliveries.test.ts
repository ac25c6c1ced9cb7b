/**
 * The handshake presets' delivery checks (docs/webhooks.md#presets), end to end: a delivery
 * signed as the provider documents runs; a tampered body, a wrong secret (and for zoom a stale
 * timestamp) get 401 invalid_signature and start nothing. Signatures are made apart from the code
 * under test (test/helpers/handshake-signing.ts).
 */
import { describe, expect, it, vi } from "vitest";
import { seedWorkspace } from "../helpers/api";
import { expectError } from "../helpers/errors";
import { base64, hex, hmac, loggedCalls, zoomHeaders } from "../helpers/handshake-signing";
import { createWorkflow, executionCount, hook, putSecret } from "../helpers/workflows";

type Sign = (secret: string, body: string, at?: number) => Promise<Record<string, string>>;

const json = { "content-type": "application/json" };
/** Each signing preset: how its sender signs a delivery, as its documentation says. */
const SIGNERS: [preset: string, doc: string, sign: Sign][] = [
  [
    "meta",
    "developers.facebook.com/docs/graph-api/webhooks/getting-started#event-notifications",
    async (secret, body) => ({
      ...json,
      "x-hub-signature-256": `sha256=${hex(await hmac(secret, body))}`,
    }),
  ],
  ["zoom", "developers.zoom.us/docs/api/webhooks/#verify-webhook-events", zoomHeaders],
  [
    "dropbox",
    "www.dropbox.com/developers/reference/webhooks#notifications",
    async (secret, body) => ({ ...json, "x-dropbox-signature": hex(await hmac(secret, body)) }),
  ],
  [
    "x",
    "docs.x.com/x-api/webhooks/quickstart (securing incoming events)",
    async (secret, body) => ({
      ...json,
      "x-twitter-webhooks-signature": `sha256=${base64(await hmac(secret, body))}`,
    }),
  ],
];

describe("handshake presets' deliveries", () => {
  it.each(SIGNERS)(
    "%s (%s): signed runs; tampered or wrong secret is refused",
    async (preset, _doc, sign) => {
      const ws = await seedWorkspace();
      await putSecret(ws, "APP", "the-app-secret");
      const verify = {
        preset,
        secret: "{{secrets.APP}}",
        ...(preset === "meta" ? { verifyToken: "{{secrets.APP}}" } : {}),
      };
      const flow = await createWorkflow(ws, { nodes: [{ type: "webhook", verify }] });
      const url = flow.webhookUrls.webhook_1 as string;
      const body = JSON.stringify({ event: "delivery", id: 1 });
      const headers = await sign("the-app-secret", body);
      expect((await hook(url, { headers, body })).status).toBe(200);
      const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
      const tampered = body.replace("1", "2");
      await expectError(await hook(url, { headers, body: tampered }), 401, "invalid_signature");
      const wrong = await sign("not-the-secret", body);
      await expectError(await hook(url, { headers: wrong, body }), 401, "invalid_signature");
      quiet.mockRestore();
      const logged = await loggedCalls(ws, flow.id, 3);
      expect(logged.map(({ outcome, reason }) => [outcome, reason])).toEqual([
        ["accepted", null],
        ["invalid_signature", "bad_signature"],
        ["invalid_signature", "bad_signature"],
      ]);
      expect(await executionCount(ws, flow.id)).toBe(1);
    },
  );

  it("zoom: a delivery stamped beyond toleranceSeconds is refused as stale", async () => {
    const ws = await seedWorkspace();
    await putSecret(ws, "ZOOM", "zoom-secret-token");
    const verify = { preset: "zoom", secret: "{{secrets.ZOOM}}", toleranceSeconds: 60 };
    const flow = await createWorkflow(ws, { nodes: [{ type: "webhook", verify }] });
    const body = JSON.stringify({ event: "meeting.started", payload: {} });
    const stale = await zoomHeaders("zoom-secret-token", body, Date.now() - 120_000);
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    const answered = await hook(flow.webhookUrls.webhook_1 as string, { headers: stale, body });
    quiet.mockRestore();
    await expectError(answered, 401, "invalid_signature");
    expect((await loggedCalls(ws, flow.id, 1))[0]?.reason).toBe("stale_timestamp");
    expect(await executionCount(ws, flow.id)).toBe(0);
  });

  it("microsoft-graph: every value[].clientState must be the secret", async () => {
    const ws = await seedWorkspace();
    await putSecret(ws, "GRAPH", "client-state-secret");
    const verify = { preset: "microsoft-graph", secret: "{{secrets.GRAPH}}" };
    const flow = await createWorkflow(ws, { nodes: [{ type: "webhook", verify }] });
    const url = flow.webhookUrls.webhook_1 as string;
    // learn.microsoft.com/graph/change-notifications-delivery-webhooks: the notification's shape.
    const notification = (clientState: string) => ({
      subscriptionId: "7f105c7d-2dc5-4530-97cd-4e7ae6534c07",
      changeType: "created",
      resource: "Users/x/Messages/y",
      clientState,
      tenantId: "84bd8158-6d4d-4958-8b9f-9d6445542f95",
    });
    const ok = {
      value: [notification("client-state-secret"), notification("client-state-secret")],
    };
    expect((await hook(url, { body: ok })).status).toBe(200);
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    const mixed = { value: [notification("client-state-secret"), notification("guess")] };
    await expectError(await hook(url, { body: mixed }), 401, "invalid_signature");
    await expectError(await hook(url, { body: { value: [] } }), 401, "invalid_signature");
    quiet.mockRestore();
    expect((await loggedCalls(ws, flow.id, 3)).map((entry) => entry.reason)).toEqual([
      null,
      "bad_signature",
      "missing_header",
    ]);
    expect(await executionCount(ws, flow.id)).toBe(1);
  });

  it("x: a signed body that is no JSON object is refused (a CRC answer cannot pass for one)", async () => {
    const ws = await seedWorkspace();
    await putSecret(ws, "X_CONSUMER", "x-consumer-secret");
    const verify = { preset: "x", secret: "{{secrets.X_CONSUMER}}" };
    const flow = await createWorkflow(ws, { nodes: [{ type: "webhook", verify }] });
    const body = "challenge_string";
    const headers = {
      "content-type": "text/plain",
      "x-twitter-webhooks-signature": `sha256=${base64(await hmac("x-consumer-secret", body))}`,
    };
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    const answered = await hook(flow.webhookUrls.webhook_1 as string, { headers, body });
    quiet.mockRestore();
    await expectError(answered, 401, "invalid_signature");
    expect(await executionCount(ws, flow.id)).toBe(0);
  });
});
