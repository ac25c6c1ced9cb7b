/**
 * The queue consumer's attempts (docs/events.md#delivery), on a fake clock: the retry schedule with
 * jitter then `failed`, each attempt logged (status, latency, first KiB), stale messages ignored,
 * disabled endpoints skipped, and an endpoint failing for 5 days disabled.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import type { DeliveryMessage } from "../../src/events/contract";
import { attemptDelivery, consumeDeliveries } from "../../src/events/delivery";
import { RETRY_SCHEDULE_S } from "../../src/events/signing";
import { call, eventually, expectJson, seedWorkspace } from "../helpers/api";
import { answering, pendingDelivery, registerReceiver, storedDeliveries } from "../helpers/events";

const DAY = 24 * 60 * 60_000;

type Page = {
  data: {
    id: string;
    status: string;
    attempts: { responseStatus: number | null; responseBody: string }[];
  }[];
};

describe("delivery attempts", () => {
  it("retries on 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h with jitter, then fails; logs each attempt", async () => {
    const ws = await seedWorkspace();
    const receiver = await registerReceiver(ws);
    let now = Date.now();
    const id = await pendingDelivery(ws, receiver.endpointId, now);
    const { calls, fetchImpl } = answering(503, "x".repeat(5_000));
    const delays: (number | null)[] = [];
    for (let attempt = 0; attempt < 8; attempt++) {
      const delay = await attemptDelivery(env, id, now, fetchImpl);
      delays.push(delay);
      now += (delay ?? 0) * 1000;
    }
    expect(calls).toHaveLength(8);
    expect(delays.at(-1)).toBeNull();
    for (const [index, base] of RETRY_SCHEDULE_S.entries()) {
      expect(delays[index]).toBeGreaterThanOrEqual(Math.floor(base * 0.9));
      expect(delays[index]).toBeLessThanOrEqual(Math.ceil(base * 1.1));
    }
    // Nothing more is attempted once it failed, even for a late message.
    expect(await attemptDelivery(env, id, now + DAY, fetchImpl)).toBeNull();
    expect(calls).toHaveLength(8);
    const page = await expectJson<Page>(
      await call("GET", `/v1/manage/event-endpoints/${receiver.endpointId}/deliveries`, {
        token: ws.ownerToken,
      }),
      200,
    );
    expect(page.data[0]?.status).toBe("failed");
    expect(page.data[0]?.attempts).toHaveLength(8);
    expect(page.data[0]?.attempts[0]?.responseStatus).toBe(503);
    expect(page.data[0]?.attempts[0]?.responseBody).toHaveLength(1024);
  });

  it("logs a network error with no status, and ignores a message that is not due", async () => {
    const ws = await seedWorkspace();
    const receiver = await registerReceiver(ws);
    const now = Date.now();
    const id = await pendingDelivery(ws, receiver.endpointId, now);
    const failing = (async () => {
      throw new TypeError("connection refused");
    }) as unknown as typeof fetch;
    const delay = await attemptDelivery(env, id, now, failing);
    expect(delay).toBeGreaterThanOrEqual(4);
    // A second message for the same delivery (a duplicate) arrives before the retry is due.
    const { calls, fetchImpl } = answering(200);
    expect(await attemptDelivery(env, id, now + 1_000, fetchImpl)).toBeNull();
    expect(calls).toHaveLength(0);
    expect(await attemptDelivery(env, id, now + (delay ?? 0) * 1000, fetchImpl)).toBeNull();
    expect(calls).toHaveLength(1);
    const [row] = await storedDeliveries(ws.workspaceId);
    expect(row).toMatchObject({ status: "succeeded", attempts: 2 });
    // The log as the API shows it: the failure is an attempt row, the success kept on the delivery.
    const page = await expectJson<Page>(
      await call("GET", `/v1/manage/event-endpoints/${receiver.endpointId}/deliveries`, {
        token: ws.ownerToken,
      }),
      200,
    );
    expect(
      page.data[0]?.attempts.map(({ responseStatus, responseBody }) => ({
        responseStatus,
        responseBody,
      })),
    ).toEqual([
      { responseStatus: null, responseBody: "network" },
      { responseStatus: 200, responseBody: "" },
    ]);
  });

  it("disables an endpoint whose attempts have all failed for 5 days; a success resets the count", async () => {
    const ws = await seedWorkspace();
    const receiver = await registerReceiver(ws);
    const now = Date.now();
    const endpoint = () =>
      env.DB.prepare("SELECT status, failing_since FROM event_endpoints WHERE id = ?")
        .bind(receiver.endpointId)
        .first<{ status: string; failing_since: number | null }>();
    await attemptDelivery(
      env,
      await pendingDelivery(ws, receiver.endpointId, now),
      now,
      answering(500).fetchImpl,
    );
    expect(await endpoint()).toEqual({ status: "enabled", failing_since: now });
    await attemptDelivery(
      env,
      await pendingDelivery(ws, receiver.endpointId, now),
      now,
      answering(200).fetchImpl,
    );
    expect(await endpoint()).toEqual({ status: "enabled", failing_since: null });

    await env.DB.prepare("UPDATE event_endpoints SET failing_since = ? WHERE id = ?")
      .bind(now - 5 * DAY + 60_000, receiver.endpointId)
      .run();
    await attemptDelivery(
      env,
      await pendingDelivery(ws, receiver.endpointId, now),
      now,
      answering(500).fetchImpl,
    );
    expect((await endpoint())?.status).toBe("enabled");
    const later = now + 60_000;
    const last = await pendingDelivery(ws, receiver.endpointId, later);
    await attemptDelivery(env, last, later, answering(500).fetchImpl);
    expect((await endpoint())?.status).toBe("disabled");

    // A disabled endpoint gets nothing: its pending deliveries fail without an attempt.
    const skipped = await pendingDelivery(ws, receiver.endpointId, later);
    const { calls, fetchImpl } = answering(200);
    expect(await attemptDelivery(env, skipped, later, fetchImpl)).toBeNull();
    expect(calls).toHaveLength(0);
    expect((await storedDeliveries(ws.workspaceId)).find((row) => row.id === skipped)?.status).toBe(
      "failed",
    );
  });

  it("a resend made while an attempt is in flight owns the delivery: the late answer changes nothing", async () => {
    const ws = await seedWorkspace();
    const receiver = await registerReceiver(ws);
    const now = Date.now();
    const id = await pendingDelivery(ws, receiver.endpointId, now);
    let answer: (response: Response) => void = () => {};
    const slow = (() =>
      new Promise<Response>((resolve) => {
        answer = resolve;
      })) as unknown as typeof fetch;
    const inFlight = attemptDelivery(env, id, now, slow);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expectJson(
      await call(
        "POST",
        `/v1/manage/event-endpoints/${receiver.endpointId}/deliveries/${id}/resend`,
        { token: ws.ownerToken },
      ),
      202,
    );
    await eventually(async () =>
      (await storedDeliveries(ws.workspaceId))[0]?.status === "succeeded" ? true : undefined,
    );
    answer(new Response("late", { status: 500 }));
    expect(await inFlight).toBeNull();
    const [row] = await storedDeliveries(ws.workspaceId);
    expect(row?.status).toBe("succeeded");
  });

  it("the consumer acks a done delivery, retries a failed one on the schedule, and one it could not attempt after its claim", async () => {
    const ws = await seedWorkspace();
    const working = await registerReceiver(ws);
    const failing = await registerReceiver(ws, { fail: 10 });
    const now = Date.now();
    const ok = await pendingDelivery(ws, working.endpointId, now);
    const refused = await pendingDelivery(ws, failing.endpointId, now);
    const broken = await pendingDelivery(ws, working.endpointId, now);
    // An event body the consumer cannot read: it throws after claiming the delivery.
    await env.DB.prepare("UPDATE event_endpoints SET include_transcript = 1 WHERE id = ?")
      .bind(working.endpointId)
      .run();
    await env.DB.prepare(
      "UPDATE events SET type = 'conversation.ended', body = 'not json' WHERE id = (SELECT event_id FROM event_deliveries WHERE id = ?)",
    )
      .bind(broken)
      .run();
    const batch = createMessageBatch<DeliveryMessage>("agent-edge-event-deliveries", [
      { id: "m1", timestamp: new Date(), attempts: 1, body: { deliveryId: ok } },
      { id: "m2", timestamp: new Date(), attempts: 1, body: { deliveryId: refused } },
      { id: "m3", timestamp: new Date(), attempts: 1, body: { deliveryId: broken } },
    ]);
    const ctx = createExecutionContext();
    const spies = batch.messages.map((message) => vi.spyOn(message, "retry"));
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    await consumeDeliveries(batch, env);
    errors.mockRestore();
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual(["m1"]);
    expect(result.retryMessages.map((m) => m.msgId)).toEqual(["m2", "m3"]);
    const retries = new Map(
      batch.messages.map((m, i) => [m.id, spies[i]?.mock.calls[0]?.[0]?.delaySeconds ?? 0]),
    );
    expect(retries.get("m2")).toBeGreaterThanOrEqual(4);
    expect(retries.get("m2")).toBeLessThanOrEqual(6);
    // Past the 60 s claim, so the delivery is due again when the message comes back.
    expect(retries.get("m3")).toBeGreaterThan(62);
  });

  it("signs with the rotated-out secret only for its 24 hours", async () => {
    const ws = await seedWorkspace();
    const receiver = await registerReceiver(ws);
    await call("POST", `/v1/manage/event-endpoints/${receiver.endpointId}/rotate-secret`, {
      token: ws.ownerToken,
    });
    const signatures = async (now: number) => {
      const { calls, fetchImpl } = answering(200);
      await attemptDelivery(
        env,
        await pendingDelivery(ws, receiver.endpointId, now),
        now,
        fetchImpl,
      );
      return calls[0]?.headers.get("webhook-signature")?.split(" ").length;
    };
    expect(await signatures(Date.now())).toBe(2);
    expect(await signatures(Date.now() + DAY + 60_000)).toBe(1);
  });
});
