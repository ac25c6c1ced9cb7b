/**
 * The twilio preset (docs/webhooks.md#twilio) against `twilio`'s own getExpectedTwilioSignature:
 * a query holding `'` (which the runtime rewrites to `%27` in the URL it hands over, while Twilio
 * signs the URL as configured), a form field repeated with one value (signed once), and the
 * standard port written out; end to end through a twilio-verified webhook node, and at the check.
 */
import { getExpectedTwilioSignature } from "twilio/lib/webhooks/webhooks";
import { describe, expect, it } from "vitest";
import { checkSignature } from "../../src/workflows/webhook/signatures";
import { expectJson, seedWorkspace } from "../helpers/api";
import { createWorkflow, execution, hook, putSecret } from "../helpers/workflows";

const AUTH_TOKEN = "12345";
const settings = { preset: "twilio", secret: "{{secrets.T}}", toleranceSeconds: 300 } as const;
const FORM = "application/x-www-form-urlencoded";

/** The form Twilio posts, as `twilio`'s library is given it (a repeated name is an array). */
const PARAMS = { Body: "hi", From: "+14158675309", To: ["+18005551212", "+18005551212"] };
const FORM_BODY = "Body=hi&From=%2B14158675309&To=%2B18005551212&To=%2B18005551212";

describe("twilio signatures made by twilio's own library", () => {
  it("a webhook node runs a call whose URL holds ' and whose form repeats a field with one value", async () => {
    const ws = await seedWorkspace();
    await putSecret(ws, "TWILIO", AUTH_TOKEN);
    const flow = await createWorkflow(ws, {
      nodes: [
        {
          type: "webhook",
          responseMode: "lastNode",
          verify: { preset: "twilio", secret: "{{secrets.TWILIO}}" },
        },
        { key: "seen", type: "set", fields: { who: "{{webhook_1.queryParams.who}}" } },
      ],
      connections: [{ from: "webhook_1", to: "seen" }],
    });
    // The URL as configured in Twilio, which Twilio signs; the request the Worker gets carries it
    // as the runtime parses it, with `'` turned into `%27`.
    const configured = `${flow.webhookUrls.webhook_1}?who=O'Brien&ref=a'b`;
    expect(new Request(configured).url).toBe(
      `${flow.webhookUrls.webhook_1}?who=O%27Brien&ref=a%27b`,
    );
    const signature = getExpectedTwilioSignature(AUTH_TOKEN, configured, PARAMS);
    const answer = await hook(configured, {
      headers: { "content-type": FORM, "x-twilio-signature": signature },
      body: FORM_BODY,
    });
    expect(await expectJson(answer, 200)).toEqual({ who: "O'Brien" });
    const run = await execution(ws, flow.id, answer.headers.get("x-execution-id") as string);
    expect(run.status).toBe("succeeded");

    // The same call signed by another token is still refused.
    const forged = await hook(configured, {
      headers: {
        "content-type": FORM,
        "x-twilio-signature": getExpectedTwilioSignature("other", configured, PARAMS),
      },
      body: FORM_BODY,
    });
    expect(forged.status).toBe(401);
  });

  it("accepts the URL as received, with ' restored, and with the standard port written out", async () => {
    const body = new TextEncoder().encode(FORM_BODY);
    const check = (received: string, signedUrl: string, params: object = PARAMS) =>
      checkSignature(settings, AUTH_TOKEN, {
        url: received,
        headers: {
          "content-type": FORM,
          "x-twilio-signature": getExpectedTwilioSignature(AUTH_TOKEN, signedUrl, params),
        },
        body,
      });
    const received = "https://edge.test/webhooks/a/b/c?who=O%27Brien";
    expect(await check(received, received)).toBeNull();
    expect(await check(received, "https://edge.test/webhooks/a/b/c?who=O'Brien")).toBeNull();
    expect(await check(received, "https://edge.test:443/webhooks/a/b/c?who=O'Brien")).toBeNull();
    expect(await check("http://edge.test/x", "http://edge.test:80/x")).toBeNull();
    // Only the rewrite is undone: another URL, another port or other fields are refused.
    expect(await check(received, "https://edge.test/webhooks/a/b/c?who=O%27Brien&x=1")).toBe(
      "bad_signature",
    );
    expect(await check(received, "https://edge.test:8443/webhooks/a/b/c?who=O'Brien")).toBe(
      "bad_signature",
    );
    expect(await check(received, received, { ...PARAMS, Body: "hello" })).toBe("bad_signature");
    // A field repeated with two values signs both, sorted.
    const two = { ...PARAMS, To: ["+2", "+1"] };
    const twoBody = "Body=hi&From=%2B14158675309&To=%2B2&To=%2B1";
    expect(
      await checkSignature(settings, AUTH_TOKEN, {
        url: received,
        headers: {
          "content-type": FORM,
          "x-twilio-signature": getExpectedTwilioSignature(AUTH_TOKEN, received, two),
        },
        body: new TextEncoder().encode(twoBody),
      }),
    ).toBeNull();
  });
});
