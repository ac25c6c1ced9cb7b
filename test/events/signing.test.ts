/**
 * Deliveries are signed per Standard Webhooks (docs/events.md): the official verifier accepts
 * them, with either secret during a rotation; a tampered body or a stale timestamp is refused.
 */
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import {
  DELIVERY_TIMEOUT_MS,
  retryDelaySeconds,
  sendOnce,
  signedHeaders,
} from "../../src/events/signing";

const ECHO_URL = (env as unknown as { ECHO_URL: string }).ECHO_URL;
/** The echo server is on 127.0.0.1: local development's policy; elsewhere the deployed one. */
const DEV = { policy: { allowPrivate: true } };
const DEPLOYED = { policy: { allowPrivate: false } };
const secret = () =>
  `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;

describe("signing", () => {
  it("is accepted by the official verifier, with either secret during a rotation", () => {
    const [newer, older] = [secret(), secret()];
    const body = JSON.stringify({ id: "evt_1", type: "link.created", data: {} });
    const headers = signedHeaders([newer, older], "evt_1", body, new Date());
    expect(headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    for (const key of [newer, older]) {
      expect(new Webhook(key).verify(body, headers)).toMatchObject({ id: "evt_1" });
    }
    expect(() => new Webhook(secret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(newer).verify(`${body} `, headers)).toThrow();
    const stale = signedHeaders([newer], "evt_1", body, new Date(Date.now() - 10 * 60_000));
    expect(() => new Webhook(newer).verify(body, stale)).toThrow();
  });

  it("sends once: what arrives verifies, and the answer is logged (first KiB)", async () => {
    const key = secret();
    const body = JSON.stringify({ id: "evt_2", type: "conversation.started" });
    const attempt = await sendOnce(`${ECHO_URL}/echo`, [key], "evt_2", body, DEV);
    expect(attempt).toMatchObject({ ok: true, status: 200 });
    const seen = JSON.parse(attempt.response) as { headers: Record<string, string>; body: string };
    expect(seen.body).toBe(body);
    expect(new Webhook(key).verify(seen.body, seen.headers)).toMatchObject({ id: "evt_2" });
    const refused = await sendOnce(`${ECHO_URL}/status/500`, [key], "evt_3", body, DEV);
    expect(refused).toMatchObject({ ok: false, status: 500 });
    const unreachable = await sendOnce("http://127.0.0.1:9/", [key], "evt_4", body, DEV);
    expect(unreachable).toMatchObject({ ok: false, status: null, response: "network" });
  });

  it("keeps the first KiB of an answer without reading the rest", async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        // Bounded: a body of at most 64 MiB, far more than is ever read.
        if (pulled >= 64 * 2 ** 20) return controller.close();
        pulled += 16_384;
        controller.enqueue(new Uint8Array(16_384).fill(0x61));
      },
    });
    const fetchImpl = (async () =>
      new Response(endless, { status: 502 })) as unknown as typeof fetch;
    const attempt = await sendOnce("https://example.com/hooks", [secret()], "evt_5", "{}", {
      ...DEPLOYED,
      fetchImpl,
    });
    expect(attempt).toMatchObject({ ok: false, status: 502 });
    expect(attempt.response).toBe("a".repeat(1024));
    expect(pulled).toBeLessThan(2 ** 20);
  });

  it("counts no answer within the timeout as a failed attempt (status null, `timeout`)", async () => {
    const never = ((_url: string, init?: RequestInit) =>
      new Promise((_resolve, reject) =>
        init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)),
      )) as unknown as typeof fetch;
    const attempt = await sendOnce("https://example.com/hooks", [secret()], "evt_6", "{}", {
      ...DEPLOYED,
      fetchImpl: never,
      timeoutMs: 50,
    });
    expect(attempt).toMatchObject({ ok: false, status: null, response: "timeout" });
    expect(attempt.latencyMs).toBeGreaterThanOrEqual(45);
    expect(DELIVERY_TIMEOUT_MS).toBe(15_000);
  });

  it("retries on the schedule with jitter, then gives up", () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelaySeconds(n, mid))).toEqual([
      5, 300, 1800, 7200, 18000, 36000, 36000,
    ]);
    expect(retryDelaySeconds(8, mid)).toBeNull();
    expect(retryDelaySeconds(2, () => 0)).toBe(270);
    expect(retryDelaySeconds(2, () => 1)).toBe(330);
  });
});
