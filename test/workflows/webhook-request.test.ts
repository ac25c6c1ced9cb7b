import { describe, expect, it } from "vitest";
import {
  MAX_WEBHOOK_BODY_BYTES,
  parseWebhookBody,
  readBodyBytes,
  webhookHeaders,
  webhookQueryParams,
} from "../../src/workflows/webhook/request";

const URL_BASE = "https://app.test/webhooks/acme/orders/hook";
const bytesOf = (text: string) => new TextEncoder().encode(text);

/** A body stream of `total` bytes in 64 KiB chunks, without Content-Length; counts what was pulled. */
function chunkedStream(total: number) {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const size = Math.min(65_536, total - state.pulled);
      if (size <= 0) return controller.close();
      state.pulled += size;
      controller.enqueue(new Uint8Array(size).fill(120));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

describe("readBodyBytes (docs/api/webhooks.md: 1 MiB)", () => {
  it("accepts exactly 1 MiB and refuses one byte more, with Content-Length", async () => {
    const ok = await readBodyBytes(
      new Request(URL_BASE, { method: "POST", body: new Uint8Array(MAX_WEBHOOK_BODY_BYTES) }),
      MAX_WEBHOOK_BODY_BYTES,
    );
    expect(ok.ok && ok.bytes.byteLength).toBe(1_048_576);
    const tooLarge = await readBodyBytes(
      new Request(URL_BASE, { method: "POST", body: new Uint8Array(MAX_WEBHOOK_BODY_BYTES + 1) }),
      MAX_WEBHOOK_BODY_BYTES,
    );
    expect(tooLarge).toEqual({ ok: false, reason: "too_large" });
  });

  it("limits a streamed body without Content-Length and stops reading it", async () => {
    const exact = chunkedStream(MAX_WEBHOOK_BODY_BYTES);
    const ok = await readBodyBytes(
      new Request(URL_BASE, { method: "POST", body: exact.stream }),
      MAX_WEBHOOK_BODY_BYTES,
    );
    expect(ok.ok && ok.bytes.byteLength).toBe(MAX_WEBHOOK_BODY_BYTES);

    const huge = chunkedStream(10 * MAX_WEBHOOK_BODY_BYTES);
    const request = new Request(URL_BASE, { method: "POST", body: huge.stream });
    expect(request.headers.get("content-length")).toBeNull();
    expect(await readBodyBytes(request, MAX_WEBHOOK_BODY_BYTES)).toEqual({
      ok: false,
      reason: "too_large",
    });
    expect(huge.state.pulled).toBeLessThan(3 * MAX_WEBHOOK_BODY_BYTES);
    expect(huge.state.cancelled).toBe(true);

    const oneMore = chunkedStream(MAX_WEBHOOK_BODY_BYTES + 1);
    expect(
      await readBodyBytes(
        new Request(URL_BASE, { method: "POST", body: oneMore.stream }),
        MAX_WEBHOOK_BODY_BYTES,
      ),
    ).toEqual({ ok: false, reason: "too_large" });
  });

  it("refuses a declared Content-Length over the limit without reading", async () => {
    const request = new Request(URL_BASE, {
      method: "POST",
      body: chunkedStream(10).stream,
      headers: { "content-length": String(MAX_WEBHOOK_BODY_BYTES + 1) },
    });
    expect(await readBodyBytes(request, MAX_WEBHOOK_BODY_BYTES)).toEqual({
      ok: false,
      reason: "too_large",
    });
    expect(request.bodyUsed).toBe(false);
  });

  it("gives empty bytes when there is no body", async () => {
    const result = await readBodyBytes(new Request(URL_BASE), MAX_WEBHOOK_BODY_BYTES);
    expect(result.ok && result.bytes.byteLength).toBe(0);
  });
});

describe("parseWebhookBody: JSON", () => {
  it("parses a GitHub-style delivery and any application/*+json", async () => {
    const payload = {
      action: "opened",
      number: 42,
      pull_request: { title: "Fix", draft: false, labels: [{ name: "bug" }] },
      sender: { login: "octocat" },
    };
    expect(await parseWebhookBody(bytesOf(JSON.stringify(payload)), "application/json")).toEqual({
      ok: true,
      body: payload,
    });
    expect(
      await parseWebhookBody(
        bytesOf('{"zen":"Keep it simple."}'),
        "Application/VND.GitHub+JSON; charset=utf-8",
      ),
    ).toEqual({ ok: true, body: { zen: "Keep it simple." } });
    expect(await parseWebhookBody(bytesOf("[1,2]"), "application/cloudevents+json")).toEqual({
      ok: true,
      body: [1, 2],
    });
  });

  it("treats only a +json suffix as JSON", async () => {
    const result = await parseWebhookBody(bytesOf('{"a":1}'), "application/vnd.github.v3.raw");
    expect(result).toEqual({ ok: true, body: {}, rawBody: '{"a":1}' });
  });

  it("reports malformed JSON with a short reason, and reads an empty body as {}", async () => {
    const bad = await parseWebhookBody(bytesOf('{"action": "opened",'), "application/json");
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.message).toMatch(/^The body is not valid JSON: .+/);
      expect(bad.message.length).toBeLessThanOrEqual(160);
    }
    expect(await parseWebhookBody(new Uint8Array(0), "application/json")).toEqual({
      ok: true,
      body: {},
    });
  });
});

describe("parseWebhookBody: forms", () => {
  it("parses a Slack slash command", async () => {
    const text =
      "token=gIkuvaNzQIHg97ATvDxqgjtO&team_id=T1&team_domain=example&channel_id=C2147483705" +
      "&user_id=U2147483697&user_name=Steve&command=%2Fweather&text=94070" +
      "&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2F1234%2F5678";
    const result = await parseWebhookBody(bytesOf(text), "application/x-www-form-urlencoded");
    expect(result).toEqual({
      ok: true,
      body: {
        token: "gIkuvaNzQIHg97ATvDxqgjtO",
        team_id: "T1",
        team_domain: "example",
        channel_id: "C2147483705",
        user_id: "U2147483697",
        user_name: "Steve",
        command: "/weather",
        text: "94070",
        response_url: "https://hooks.slack.com/commands/1234/5678",
      },
    });
  });

  it("parses a Twilio callback and turns repeated names into arrays, in order", async () => {
    const text =
      "MessageSid=SM1234567890abcdef&From=%2B15551234567&To=%2B15557654321&Body=Hello+there" +
      "&MediaUrl=a&MediaUrl=b&MediaUrl=c";
    const result = await parseWebhookBody(
      bytesOf(text),
      "application/x-www-form-urlencoded; charset=UTF-8",
    );
    expect(result).toEqual({
      ok: true,
      body: {
        MessageSid: "SM1234567890abcdef",
        From: "+15551234567",
        To: "+15557654321",
        Body: "Hello there",
        MediaUrl: ["a", "b", "c"],
      },
    });
  });

  it("parses multipart text fields and summarises files", async () => {
    const form = new FormData();
    form.append("tag", "red");
    form.append("name", "Report");
    form.append("tag", "blue");
    form.append("upload", new File(["hello, world"], "hello.txt", { type: "text/plain" }));
    form.append("blob", new File([new Uint8Array([1, 2, 3])], "data.bin"));
    const request = new Request(URL_BASE, { method: "POST", body: form });
    const contentType = request.headers.get("content-type");
    expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
    const bytes = new Uint8Array(await request.arrayBuffer());
    expect(await parseWebhookBody(bytes, contentType)).toEqual({
      ok: true,
      body: {
        tag: ["red", "blue"],
        name: "Report",
        upload: { filename: "hello.txt", contentType: "text/plain", size: 12 },
        blob: { filename: "data.bin", contentType: "application/octet-stream", size: 3 },
      },
    });
  });

  it("reports a malformed multipart body", async () => {
    expect(
      await parseWebhookBody(bytesOf("not multipart at all"), "multipart/form-data; boundary=xyz"),
    ).toEqual({ ok: false, message: "The multipart body could not be parsed." });
    expect(await parseWebhookBody(bytesOf("--x\r\n"), "multipart/form-data")).toEqual({
      ok: false,
      message: "The multipart body could not be parsed.",
    });
  });

  it("keeps a field named __proto__ as an own property and leaves Object.prototype alone", async () => {
    const result = await parseWebhookBody(
      bytesOf("__proto__=polluted&constructor=x&a=1"),
      "application/x-www-form-urlencoded",
    );
    expect(result.ok).toBe(true);
    const body = (result as { body: Record<string, unknown> }).body;
    expect(Object.hasOwn(body, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(body, "__proto__")?.value).toBe("polluted");
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(Object.prototype, "polluted")).toBe(false);
    expect(body.a).toBe("1");
  });
});

describe("parseWebhookBody: other content types", () => {
  it("gives {} and the text in rawBody, or no rawBody when empty", async () => {
    expect(await parseWebhookBody(bytesOf("<ping/>"), "text/xml")).toEqual({
      ok: true,
      body: {},
      rawBody: "<ping/>",
    });
    expect(await parseWebhookBody(bytesOf("hello"), null)).toEqual({
      ok: true,
      body: {},
      rawBody: "hello",
    });
    expect(await parseWebhookBody(new Uint8Array(0), "text/plain")).toEqual({ ok: true, body: {} });
  });

  it("replaces invalid UTF-8 instead of throwing", async () => {
    const bytes = new Uint8Array([0x68, 0x69, 0xff, 0xfe, 0xc3]);
    expect(await parseWebhookBody(bytes, "text/plain; charset=utf-8")).toEqual({
      ok: true,
      body: {},
      rawBody: "hi\uFFFD\uFFFD\uFFFD",
    });
    const json = await parseWebhookBody(bytes, "application/json");
    expect(json.ok).toBe(false);
  });
});

describe("webhookHeaders and webhookQueryParams", () => {
  it("lower-cases header names and joins repeated values", () => {
    const headers = new Headers();
    headers.append("X-GitHub-Event", "push");
    headers.append("Accept", "text/html");
    headers.append("Accept", "application/json");
    // The one header that iteration yields once per value.
    headers.append("Set-Cookie", "a=1");
    headers.append("Set-Cookie", "b=2");
    headers.append("__proto__", "x");
    const out = webhookHeaders(headers);
    expect(out).toEqual({
      "x-github-event": "push",
      accept: "text/html, application/json",
      "set-cookie": "a=1, b=2",
      ["__proto__"]: "x",
    });
    // A header named like the prototype's accessor is data, not a prototype.
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });

  it("gives query parameters as strings, repeated names as arrays", () => {
    const url = new URL(`${URL_BASE}?id=7&tag=a&tag=b&empty=&q=a%20b&__proto__=x`);
    const query = webhookQueryParams(url);
    expect(query).toEqual({ id: "7", tag: ["a", "b"], empty: "", q: "a b", ["__proto__"]: "x" });
    expect(Object.getPrototypeOf(query)).toBe(Object.prototype);
    expect(webhookQueryParams(new URL(URL_BASE))).toEqual({});
  });
});
