/**
 * Signatures made apart from the code under test (docs/webhooks.md#handshakes): HMAC-SHA256 with
 * WebCrypto, written out as each provider's documentation says; and the request log as listed.
 */
import { expect, vi } from "vitest";
import { call, expectJson, type Workspace } from "./api";

const encoder = new TextEncoder();

/** HMAC-SHA256 of `message` under `secret` (both UTF-8). */
export async function hmac(secret: string, message: string): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
}

export const hex = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
export const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/** Slack's signing: `v0=` + hex HMAC of `v0:{timestamp}:{body}` (api.slack.com/authentication/verifying-requests-from-slack). */
export async function slackHeaders(secret: string, body: string, at = Date.now()) {
  const timestamp = String(Math.floor(at / 1000));
  return {
    "content-type": "application/json",
    "x-slack-request-timestamp": timestamp,
    "x-slack-signature": `v0=${hex(await hmac(secret, `v0:${timestamp}:${body}`))}`,
  };
}

/** Zoom's signing: `v0=` + hex HMAC of `v0:{x-zm-request-timestamp}:{body}` (developers.zoom.us/docs/api/webhooks). */
export async function zoomHeaders(secret: string, body: string, at = Date.now()) {
  const timestamp = String(Math.floor(at / 1000));
  return {
    "content-type": "application/json",
    "x-zm-request-timestamp": timestamp,
    "x-zm-signature": `v0=${hex(await hmac(secret, `v0:${timestamp}:${body}`))}`,
  };
}

type Entry = { outcome: string; status: number; executionId: string | null; reason: string | null };

/** The workflow's request log once it holds `count` entries, oldest first. */
export async function loggedCalls(ws: Workspace, workflowId: string, count: number) {
  let entries: Entry[] = [];
  await vi.waitFor(async () => {
    const page = await expectJson<{ data: Entry[] }>(
      await call("GET", `/v1/manage/workflows/${workflowId}/requests?limit=100`, {
        token: ws.ownerToken,
      }),
      200,
    );
    expect(page.data).toHaveLength(count);
    entries = page.data.reverse();
  });
  return entries.map(({ outcome, status, executionId, reason }) => ({
    outcome,
    status,
    executionId,
    reason,
  }));
}
