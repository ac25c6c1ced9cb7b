/**
 * A webhook node's `verify` (docs/webhooks.md#signatures) end to end: a call signed with the
 * workspace secret runs; a forged, unsigned or stale one gets 401 invalid_signature in the
 * envelope, starts nothing, and the reason is logged but never answered; no secret refuses every
 * call; bad settings are refused with every problem listed.
 */
import { describe, expect, it, vi } from "vitest";
import { call, expectJson, seedWorkspace } from "../helpers/api";
import { expectError } from "../helpers/errors";
import {
  createWorkflow,
  executionCount,
  githubSignature,
  hook,
  putSecret,
} from "../helpers/workflows";

describe("webhook signature verification", () => {
  it("runs a signed call; refuses forged, unsigned and unparseable-but-forged calls with 401", async () => {
    const ws = await seedWorkspace();
    await putSecret(ws, "GH_SECRET", "gh-webhook-secret");
    const flow = await createWorkflow(ws, {
      nodes: [{ type: "webhook", verify: { preset: "github", secret: "{{secrets.GH_SECRET}}" } }],
    });
    const url = flow.webhookUrls.webhook_1 as string;
    const body = JSON.stringify({ action: "opened", number: 42 });
    const signed = await hook(url, {
      headers: {
        "content-type": "application/json",
        "x-hub-signature-256": await githubSignature("gh-webhook-secret", body),
      },
      body,
    });
    expect(signed.status).toBe(200);

    const warn = vi.spyOn(console, "error").mockImplementation(() => {});
    const forged = await hook(url, {
      headers: {
        "content-type": "application/json",
        "x-hub-signature-256": await githubSignature("guess", body),
      },
      body,
    });
    // A signature is no bearer challenge: docs/errors.md gives WWW-Authenticate to invalid_key only.
    expect(forged.headers.get("www-authenticate")).toBeNull();
    const error = await expectError(forged, 401, "invalid_signature");
    const unsigned = await hook(url, { headers: { "content-type": "application/json" }, body });
    await expectError(unsigned, 401, "invalid_signature");
    // A body that would not parse is refused for its signature first: nothing is told about it.
    const garbled = await hook(url, {
      headers: { "content-type": "application/json", "x-hub-signature-256": "sha256=00" },
      body: "{",
    });
    await expectError(garbled, 401, "invalid_signature");
    const logged = warn.mock.calls.map((args) => String(args[0]));
    warn.mockRestore();
    expect(
      logged
        .filter((line) => line.includes("webhook_signature_refused"))
        .map((line) => JSON.parse(line).reason),
    ).toEqual(["bad_signature", "missing_header", "bad_signature"]);
    expect(JSON.stringify(error)).not.toMatch(/bad_signature|missing_header/);
    expect(await executionCount(ws, flow.id)).toBe(1);
  });

  it("refuses every call while the named secret does not exist (fail closed)", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, {
      nodes: [{ type: "webhook", verify: { preset: "github", secret: "{{secrets.MISSING}}" } }],
    });
    const body = "{}";
    const warn = vi.spyOn(console, "error").mockImplementation(() => {});
    const response = await hook(flow.webhookUrls.webhook_1 as string, {
      headers: {
        "content-type": "application/json",
        "x-hub-signature-256": await githubSignature("anything", body),
      },
      body,
    });
    warn.mockRestore();
    await expectError(response, 401, "invalid_signature");
    expect(await executionCount(ws, flow.id)).toBe(0);
  });

  it("refuses bad settings with every problem listed", async () => {
    const ws = await seedWorkspace();
    const response = await call("POST", "/v1/manage/workflows", {
      token: ws.ownerToken,
      body: {
        name: "Bad verify",
        slug: "bad-verify",
        nodes: [
          {
            type: "webhook",
            verify: { preset: "gitlub", secret: "plain", toleranceSeconds: 0, header: "x-sig" },
          },
          {
            key: "hmac",
            type: "webhook",
            verify: { preset: "hmac-sha256", secret: "{{secrets.S}}", encoding: "hex32" },
          },
        ],
        connections: [],
      },
    });
    const body = await expectJson<{
      error: { code: string; details: { field: string; code: string }[] };
    }>(response, 400);
    expect(body.error.details.map((d) => `${d.field} ${d.code}`).sort()).toEqual(
      [
        "nodes[0].verify.preset invalid_option",
        "nodes[0].verify.secret invalid_secret",
        "nodes[0].verify.toleranceSeconds out_of_range",
        "nodes[0].verify.header not_allowed",
        "nodes[1].verify.header required",
        "nodes[1].verify.encoding invalid_option",
      ].sort(),
    );
  });
});
