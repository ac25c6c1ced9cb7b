/**
 * Credentials in a query string are refused, never accepted (docs/security.md#credentials), and no
 * log line holds a credential (docs/security.md#logs).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { log, redactHeaders, redactUrl } from "../../src/platform/log";
import { call, expectJson, seedWorkspace } from "../helpers/api";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("credentials in the query string", () => {
  it("refuses a valid widget key sent as ?key=, even beside a valid header", async () => {
    const ws = await seedWorkspace();
    for (const [path, token] of [
      [`/v1/widget/launches/lnk_x?key=${ws.widgetKey}`, undefined],
      [`/v1/widget/launches/lnk_x?api_key=${ws.widgetKey}`, ws.widgetKey],
      [`/v1/manage/agents?token=${ws.ownerToken}`, undefined],
      [`/v1/manage/agents?access_token=x`, ws.ownerToken],
      [`/v1/manage/agents?anything=${ws.ownerToken}`, ws.ownerToken],
    ] as const) {
      const body = await expectJson<{ error: { code: string; details: { field: string }[] } }>(
        await call("GET", path, { token }),
        400,
      );
      expect([path, body.error.code]).toEqual([path, "credential_in_query"]);
      expect(body.error.details[0]?.field).toMatch(/^query\./);
    }
  });

  it("leaves other query parameters and the socket's one-time ticket alone", async () => {
    const ws = await seedWorkspace();
    const list = await call("GET", "/v1/manage/agents", { token: ws.ownerToken });
    expect(list.status).toBe(200);
    // A customer's own id that merely starts like a token is not one (no valid checksum).
    const search = await call("GET", "/v1/widget/launches?externalId=mt_customer12345", {
      token: ws.widgetKey,
    });
    expect(search.status).toBe(200);
    // The ticket is checked by the conversation (403 invalid_ticket), not refused as a credential.
    const socket = await call("GET", "/v1/chat/sessions/ses_x/socket?ticket=abc", {
      headers: { upgrade: "websocket" },
    });
    expect(socket.status).not.toBe(400);
  });
});

describe("log lines", () => {
  const key = "wk_live_AbCdEfGh0123456789AbCdEfGh0123456789";
  const token = "mt_AbCdEfGh0123456789AbCdEfGh01234";

  it("redact credential headers, query values and key-shaped text", () => {
    const headers = new Headers({
      authorization: `Bearer ${key}`,
      "x-api-key": key,
      cookie: "session=s3cret",
      "user-agent": "curl/8",
    });
    expect(redactHeaders(headers)).toEqual({
      authorization: "[redacted]",
      "x-api-key": "[redacted]",
      cookie: "[redacted]",
      "user-agent": "curl/8",
    });
    const url = redactUrl(`https://edge.test/v1/x?key=${key}&q=ok&other=${token}&ticket=t1`);
    expect(url).toBe("/v1/x?key=[redacted]&q=ok&other=[redacted]&ticket=[redacted]");
    expect(url).not.toContain(key);
  });

  it("never print a key that reaches them inside an error or a field", () => {
    const written: string[] = [];
    vi.spyOn(console, "error").mockImplementation((line: string) => written.push(line));
    vi.spyOn(console, "log").mockImplementation((line: string) => written.push(line));
    log("error", "request_failed", {
      error: new Error(`upstream said: Authorization: Bearer ${key}`),
      detail: `token ${token} and ${key}`,
      url: `/v1/widget?key=${key}`,
    });
    log("info", "ok", { note: `whsec_${"a".repeat(32)}` });
    expect(written).toHaveLength(2);
    for (const line of written) {
      expect(line).not.toContain(key);
      expect(line).not.toContain(token);
      expect(line).not.toContain("whsec_a");
      expect(JSON.parse(line)).toHaveProperty("event");
    }
  });
});
