/**
 * The signature presets (docs/webhooks.md#signatures) against the providers' own published examples
 * or official libraries: GitHub's and Slack's documented examples, the example of Twilio's own
 * library tests, Stripe's library (`stripe`) and the Standard Webhooks reference library signing;
 * Shopify publishes no fixed example, so its check is shown with an HMAC made apart from ours.
 */

import { Webhook } from "standardwebhooks";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import type { WebhookVerify } from "../../src/workflows/nodes/types";
import { checkSignature, type SignedRequest } from "../../src/workflows/webhook/signatures";

const encoder = new TextEncoder();
const request = (
  headers: Record<string, string>,
  body: string,
  url = "https://edge.test/w",
): SignedRequest => ({
  url,
  headers,
  body: encoder.encode(body),
});
const settings = (
  preset: WebhookVerify["preset"],
  extra: Partial<WebhookVerify> = {},
): WebhookVerify => ({
  preset,
  secret: "{{secrets.S}}",
  toleranceSeconds: 300,
  ...extra,
});

describe("signature presets", () => {
  it("github: the example of GitHub's documentation", async () => {
    const secret = "It's a Secret to Everybody";
    const signature = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";
    const github = settings("github");
    expect(
      await checkSignature(
        github,
        secret,
        request({ "x-hub-signature-256": signature }, "Hello, World!"),
      ),
    ).toBeNull();
    expect(
      await checkSignature(
        github,
        secret,
        request({ "x-hub-signature-256": signature }, "Hello, World?"),
      ),
    ).toBe("bad_signature");
    expect(await checkSignature(github, secret, request({}, "Hello, World!"))).toBe(
      "missing_header",
    );
    expect(
      await checkSignature(
        github,
        undefined,
        request({ "x-hub-signature-256": signature }, "Hello, World!"),
      ),
    ).toBe("no_secret");
  });

  it("slack: the example of Slack's documentation, within the timestamp tolerance", async () => {
    const body =
      "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c";
    const headers = {
      "x-slack-request-timestamp": "1531420618",
      "x-slack-signature": "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503",
    };
    const secret = "8f742231b10e8888abcd99yyyzzz85a5";
    const at = 1531420618_000;
    expect(
      await checkSignature(settings("slack"), secret, request(headers, body), at + 299_000),
    ).toBeNull();
    expect(
      await checkSignature(settings("slack"), secret, request(headers, body), at + 301_000),
    ).toBe("stale_timestamp");
    expect(
      await checkSignature(settings("slack"), secret, request(headers, `${body}&x=1`), at),
    ).toBe("bad_signature");
  });

  it("twilio: the example of Twilio's own library tests (form fields sorted after the URL)", async () => {
    const fields = new URLSearchParams({
      CallSid: "CA1234567890ABCDE",
      Caller: "+14158675309",
      Digits: "1234",
      From: "+14158675309",
      To: "+18005551212",
    });
    const headers = {
      "content-type": "application/x-www-form-urlencoded",
      "x-twilio-signature": "RSOYDt4T1cUTdK1PDd93/VVr8B8=",
    };
    const url = "https://mycompany.com/myapp.php?foo=1&bar=2";
    expect(
      await checkSignature(settings("twilio"), "12345", request(headers, fields.toString(), url)),
    ).toBeNull();
    expect(
      await checkSignature(
        settings("twilio"),
        "12345",
        request(headers, fields.toString(), `${url}&baz=3`),
      ),
    ).toBe("bad_signature");
  });

  it("stripe: headers made by Stripe's library, several v1 signatures, the tolerance", async () => {
    const stripe = new Stripe("sk_test_x");
    const payload = JSON.stringify({
      id: "evt_1",
      object: "event",
      type: "payment_intent.succeeded",
    });
    const secret = "whsec_test_secret";
    const timestamp = Math.floor(Date.now() / 1000);
    const header = await stripe.webhooks.generateTestHeaderStringAsync({
      payload,
      secret,
      timestamp,
    });
    const now = timestamp * 1000;
    expect(
      await checkSignature(
        settings("stripe"),
        secret,
        request({ "stripe-signature": header }, payload),
        now,
      ),
    ).toBeNull();
    const two = `${header},v1=${"0".repeat(64)}`;
    expect(
      await checkSignature(
        settings("stripe"),
        secret,
        request({ "stripe-signature": two }, payload),
        now,
      ),
    ).toBeNull();
    expect(
      await checkSignature(
        settings("stripe"),
        "whsec_other",
        request({ "stripe-signature": header }, payload),
        now,
      ),
    ).toBe("bad_signature");
    expect(
      await checkSignature(
        settings("stripe", { toleranceSeconds: 60 }),
        secret,
        request({ "stripe-signature": header }, payload),
        now + 61_000,
      ),
    ).toBe("stale_timestamp");
    // Stripe's own check agrees with ours.
    const event = await stripe.webhooks.constructEventAsync(payload, header, secret);
    expect(event.id).toBe("evt_1");
  });

  it("standard-webhooks: signed by the reference library, with a rotated secret", async () => {
    const secret = `whsec_${btoa("a 32 byte secret for the tests!!")}`;
    const body = JSON.stringify({ type: "user.created" });
    const at = new Date();
    const signature = new Webhook(secret).sign("msg_1", at, body);
    const headers = {
      "webhook-id": "msg_1",
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": `v1,${btoa("old")} ${signature}`,
    };
    expect(
      await checkSignature(settings("standard-webhooks"), secret, request(headers, body)),
    ).toBeNull();
    expect(
      await checkSignature(
        settings("standard-webhooks"),
        secret,
        request({ ...headers, "webhook-id": "msg_2" }, body),
      ),
    ).toBe("bad_signature");
    // A secret with no key in it refuses, and never reaches Web Crypto with an empty key.
    for (const empty of ["whsec_", "whsec_not base64!"]) {
      expect(
        await checkSignature(settings("standard-webhooks"), empty, request(headers, body)),
      ).toBe("no_secret");
    }
  });

  it("shopify and hmac-sha256: base64 and hex HMACs of the raw bytes, prefix and all", async () => {
    const body = '{"id":820982911946154500,"email":"jon@example.com"}';
    const key = await crypto.subtle.importKey(
      "raw",
      encoder.encode("shpss_secret"),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(body)));
    const b64 = btoa(String.fromCharCode(...mac));
    const hex = Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("");
    expect(
      await checkSignature(
        settings("shopify"),
        "shpss_secret",
        request({ "x-shopify-hmac-sha256": b64 }, body),
      ),
    ).toBeNull();
    const custom = settings("hmac-sha256", {
      header: "x-signature",
      prefix: "sha256=",
      encoding: "hex",
    });
    expect(
      await checkSignature(
        custom,
        "shpss_secret",
        request({ "x-signature": `sha256=${hex.toUpperCase()}` }, body),
      ),
    ).toBeNull();
    expect(
      await checkSignature(custom, "shpss_secret", request({ "x-signature": hex }, body)),
    ).toBe("missing_header");
    const base64 = settings("hmac-sha256", { header: "x-signature", encoding: "base64" });
    expect(
      await checkSignature(base64, "shpss_secret", request({ "x-signature": b64 }, body)),
    ).toBeNull();
  });

  it("twilio: a GET is signed by its URL alone; repeated fields sort by value; hmac-sha256 reads own headers only", async () => {
    const sign = async (text: string) => {
      const key = await crypto.subtle.importKey(
        "raw",
        encoder.encode("12345"),
        { name: "HMAC", hash: "SHA-1" },
        false,
        ["sign"],
      );
      return btoa(
        String.fromCharCode(
          ...new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(text))),
        ),
      );
    };
    const url = "https://mycompany.com/voice?CallSid=CA1&From=%2B1415";
    const get = request({ "x-twilio-signature": await sign(url) }, "", url);
    expect(await checkSignature(settings("twilio"), "12345", get)).toBeNull();
    const form = "To=b&To=a&Body=hi";
    const post = request(
      {
        "content-type": "application/x-www-form-urlencoded",
        "x-twilio-signature": await sign("https://mycompany.com/sms" + "BodyhiToaTob"),
      },
      form,
      "https://mycompany.com/sms",
    );
    expect(await checkSignature(settings("twilio"), "12345", post)).toBeNull();
    const odd = settings("hmac-sha256", { header: "constructor", encoding: "hex" });
    expect(await checkSignature(odd, "s", request({}, "{}"))).toBe("missing_header");
  });
});
