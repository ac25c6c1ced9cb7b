/**
 * An attempt's claim and its record (docs/events.md#delivery, docs/operations.md#incidents): the
 * queue's message carries the delivery's event and endpoint, so the claim reads them directly; a
 * message without them (sent before they were carried) is attempted the same way; one whose ids
 * are not its delivery's sends nothing; a test event's answer, attempted without a claim, overwrites
 * no attempt made meanwhile; a success ends a run of failures even one that began while it was under
 * way.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { attemptDelivery } from "../../src/events/delivery";
import { resendDelivery, sendTestEvent } from "../../src/events/delivery-log";
import type { AppBindings } from "../../src/platform/env";
import { call, expectJson, seedWorkspace } from "../helpers/api";
import { answering, pendingDelivery, registerReceiver } from "../helpers/events";

type Row = { event_id: string; status: string; attempts: number; claimed_until: number | null };

const row = (id: string) =>
  env.DB.prepare(
    "SELECT event_id, status, attempts, claimed_until FROM event_deliveries WHERE id = ?",
  )
    .bind(id)
    .first<Row>();

describe("an attempt's claim", () => {
  it("attempts a message with its ids once, and one with the delivery's id alone once", async () => {
    const ws = await seedWorkspace();
    const { endpointId } = await registerReceiver(ws);
    const now = Date.now();
    const carried = await pendingDelivery(ws, endpointId, now);
    const eventId = (await row(carried))?.event_id as string;
    const alone = await pendingDelivery(ws, endpointId, now);
    const ok = answering(200);

    const message = { deliveryId: carried, eventId, endpointId };
    expect(await attemptDelivery(env, message, now, ok.fetchImpl)).toBeNull();
    expect(await attemptDelivery(env, alone, now, ok.fetchImpl)).toBeNull();
    // Each was sent once, with its own event's id; a second message of each finds it done.
    expect(ok.calls.map((request) => request.headers.get("webhook-id"))).toEqual([
      eventId,
      (await row(alone))?.event_id,
    ]);
    expect(await attemptDelivery(env, message, now + 1, ok.fetchImpl)).toBeNull();
    expect(await attemptDelivery(env, alone, now + 1, ok.fetchImpl)).toBeNull();
    expect(ok.calls).toHaveLength(2);
    expect(await row(carried)).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(await row(alone)).toMatchObject({ status: "succeeded", attempts: 1 });
  });

  it("sends nothing for a message whose ids are not its delivery's, and leaves it unclaimed", async () => {
    const ws = await seedWorkspace();
    const { endpointId } = await registerReceiver(ws);
    const other = await registerReceiver(ws);
    const now = Date.now();
    const id = await pendingDelivery(ws, endpointId, now);
    const eventId = (await row(id))?.event_id as string;
    const ok = answering(200);
    for (const message of [
      { deliveryId: id, eventId, endpointId: other.endpointId },
      { deliveryId: id, eventId: "evt_other", endpointId },
    ]) {
      expect(await attemptDelivery(env, message, now, ok.fetchImpl)).toBeNull();
    }
    expect(ok.calls).toHaveLength(0);
    expect(await row(id)).toMatchObject({ status: "pending", attempts: 0, claimed_until: null });
  });

  it("retries a failure on the schedule: the step and the attempts move on in SQL", async () => {
    const ws = await seedWorkspace();
    const { endpointId } = await registerReceiver(ws);
    const now = Date.now();
    const id = await pendingDelivery(ws, endpointId, now);
    // 5 s, then 5 minutes, each within ±10 % (docs/events.md#delivery).
    const first = await attemptDelivery(env, id, now, answering(500).fetchImpl);
    expect(first).toBeGreaterThanOrEqual(4);
    expect(first).toBeLessThanOrEqual(6);
    const second = await attemptDelivery(env, id, now + 6_000, answering(503).fetchImpl);
    expect(second).toBeGreaterThanOrEqual(270);
    expect(second).toBeLessThanOrEqual(330);
    expect(await row(id)).toMatchObject({ status: "pending", attempts: 2, claimed_until: null });
  });
});

describe("a test event", () => {
  it("overwrites no attempt a resend made while it waited: its answer is an attempt row", async () => {
    const ws = await seedWorkspace();
    const { endpointId } = await registerReceiver(ws);
    // The resend's queue message is not consumed: the test attempts the delivery itself.
    const quiet = {
      ...env,
      EVENT_DELIVERIES: { sendBatch: async () => {} },
    } as never as AppBindings;
    const now = Date.now();
    let deliveryId = "";
    const resentMeanwhile = (async (input: RequestInfo, init?: RequestInit) => {
      const eventId = new Request(input, init).headers.get("webhook-id");
      const found = await env.DB.prepare("SELECT id FROM event_deliveries WHERE event_id = ?")
        .bind(eventId)
        .first<{ id: string }>();
      deliveryId = found?.id ?? "";
      await resendDelivery(quiet, ws.workspaceId, endpointId, deliveryId, now);
      await attemptDelivery(env, deliveryId, now, answering(200).fetchImpl);
      return new Response("", { status: 500 });
    }) as typeof fetch;
    await sendTestEvent(quiet, ws.workspaceId, endpointId, now, resentMeanwhile);
    // The resend's success stays on its row; the test's 500 is logged beside it.
    expect(await row(deliveryId)).toMatchObject({ status: "succeeded", attempts: 1 });
    const logged = await env.DB.prepare(
      "SELECT response_status FROM delivery_attempts WHERE delivery_id = ?",
    )
      .bind(deliveryId)
      .all();
    expect(logged.results).toEqual([{ response_status: 500 }]);
  });
});

describe("a success and the endpoint's run of failures", () => {
  it("ends a run that began while the success was under way", async () => {
    const ws = await seedWorkspace();
    const { endpointId } = await registerReceiver(ws);
    const now = Date.now();
    const [slow, first, second] = [
      await pendingDelivery(ws, endpointId, now),
      await pendingDelivery(ws, endpointId, now),
      await pendingDelivery(ws, endpointId, now),
    ];
    const health = async () =>
      (
        await expectJson<{ health: { status: string } }>(
          await call("GET", `/v1/manage/event-endpoints/${endpointId}`, { token: ws.ownerToken }),
          200,
        )
      ).health.status;
    // The slow delivery was claimed while the endpoint was healthy; two others fail meanwhile.
    const failingMeanwhile = (async () => {
      await attemptDelivery(env, first, now, answering(500).fetchImpl);
      await attemptDelivery(env, second, now, answering(500).fetchImpl);
      expect(await health()).toBe("failing");
      return new Response("", { status: 200 });
    }) as unknown as typeof fetch;
    await attemptDelivery(env, slow, now, failingMeanwhile);
    expect(await health()).toBe("healthy");
    const endpoint = await env.DB.prepare(
      "SELECT failing_since, consecutive_failures FROM event_endpoints WHERE id = ?",
    )
      .bind(endpointId)
      .first();
    expect(endpoint).toEqual({ failing_since: null, consecutive_failures: 0 });
  });
});
