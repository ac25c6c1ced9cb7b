/**
 * Failing endpoints are incidents (docs/operations.md#incidents): from the second failed attempt in
 * a row `GET /v1/manage/event-endpoints/{id}` shows `health: failing` with since, lastError and
 * failedDeliveries; a success makes it healthy; with `autoRecover` the success that ends the
 * incident sends again, once each, the deliveries that failed in it, also when two successes race.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { attemptDelivery } from "../../src/events/delivery";
import type { AppBindings } from "../../src/platform/env";
import { call, eventually, expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import {
  answering,
  eventIdOf,
  pendingDelivery,
  receivedEventIds,
  registerReceiver,
  storedDeliveries,
} from "../helpers/events";

type Health = {
  status: "healthy" | "failing";
  since: string | null;
  lastError: string | null;
  failedDeliveries: number;
};
type Endpoint = { id: string; autoRecover: boolean; health: Health };

const PATH = "/v1/manage/event-endpoints";
const HEALTHY: Health = { status: "healthy", since: null, lastError: null, failedDeliveries: 0 };

const endpoint = async (ws: Workspace, id: string) =>
  expectJson<Endpoint>(await call("GET", `${PATH}/${id}`, { token: ws.ownerToken }), 200);

const throwing = (name: string) =>
  (async () => {
    const error = new Error(name);
    error.name = name;
    throw error;
  }) as unknown as typeof fetch;

/** The Worker's bindings with a queue that records the delivery ids sent to it. */
function recordingQueue(): { env: AppBindings; sent: string[] } {
  const sent: string[] = [];
  const queue = {
    sendBatch: async (messages: { body: { deliveryId: string } }[]) => {
      sent.push(...messages.map((message) => message.body.deliveryId));
    },
  };
  const bindings = { ...(env as AppBindings), EVENT_DELIVERIES: queue };
  return { env: bindings as unknown as AppBindings, sent };
}

/** An endpoint with `autoRecover` that failed: two deliveries failed in its incident. */
async function incident(ws: Workspace, autoRecover: boolean, start: number) {
  const receiver = await registerReceiver(ws);
  await call("PATCH", `${PATH}/${receiver.endpointId}`, {
    token: ws.ownerToken,
    body: { autoRecover },
  });
  // Failed once before the incident, then succeeded: not part of it.
  const before = await pendingDelivery(ws, receiver.endpointId, start);
  await attemptDelivery(env, before, start, answering(500).fetchImpl);
  await attemptDelivery(
    env,
    await pendingDelivery(ws, receiver.endpointId, start),
    start + 1,
    answering(200).fetchImpl,
  );
  const failed = [
    await pendingDelivery(ws, receiver.endpointId, start),
    await pendingDelivery(ws, receiver.endpointId, start),
  ];
  await attemptDelivery(env, failed[0] as string, start + 10, answering(503).fetchImpl);
  await attemptDelivery(env, failed[1] as string, start + 20, throwing("TimeoutError"));
  return { receiver, before, failed };
}

describe("endpoint health", () => {
  it("is failing from the second failed attempt in a row, with since, lastError and failedDeliveries; healthy after a success", async () => {
    const ws = await seedWorkspace();
    const receiver = await registerReceiver(ws);
    const start = Date.now();
    const first = await pendingDelivery(ws, receiver.endpointId, start);
    const second = await pendingDelivery(ws, receiver.endpointId, start);
    expect((await endpoint(ws, receiver.endpointId)).health).toEqual(HEALTHY);

    await attemptDelivery(env, first, start, answering(500).fetchImpl);
    // One failure is not yet an incident.
    expect((await endpoint(ws, receiver.endpointId)).health).toEqual(HEALTHY);

    await attemptDelivery(env, second, start + 1_000, throwing("TypeError"));
    expect((await endpoint(ws, receiver.endpointId)).health).toEqual({
      status: "failing",
      since: new Date(start).toISOString(),
      lastError: "network",
      failedDeliveries: 2,
    });

    // The first delivery's retry fails too: still two deliveries, the newest error, the same since.
    const retryAt = start + 60_000;
    await attemptDelivery(env, first, retryAt, throwing("TimeoutError"));
    const failing = await endpoint(ws, receiver.endpointId);
    expect(failing.health).toEqual({
      status: "failing",
      since: new Date(start).toISOString(),
      lastError: "timeout",
      failedDeliveries: 2,
    });
    // The list shows it as well.
    const listed = await expectJson<{ data: Endpoint[] }>(
      await call("GET", PATH, { token: ws.ownerToken }),
      200,
    );
    expect(listed.data[0]?.health).toEqual(failing.health);

    await attemptDelivery(
      env,
      await pendingDelivery(ws, receiver.endpointId, retryAt),
      retryAt,
      answering(204).fetchImpl,
    );
    expect((await endpoint(ws, receiver.endpointId)).health).toEqual(HEALTHY);
  });

  it("names the status of an HTTP failure and counts only the failures since the run began", async () => {
    const ws = await seedWorkspace();
    const receiver = await registerReceiver(ws);
    const start = Date.now();
    await attemptDelivery(
      env,
      await pendingDelivery(ws, receiver.endpointId, start),
      start,
      answering(502).fetchImpl,
    );
    await attemptDelivery(
      env,
      await pendingDelivery(ws, receiver.endpointId, start),
      start + 1,
      answering(200).fetchImpl,
    );
    await attemptDelivery(
      env,
      await pendingDelivery(ws, receiver.endpointId, start),
      start + 2,
      answering(500).fetchImpl,
    );
    await attemptDelivery(
      env,
      await pendingDelivery(ws, receiver.endpointId, start),
      start + 3,
      answering(429).fetchImpl,
    );
    expect((await endpoint(ws, receiver.endpointId)).health).toEqual({
      status: "failing",
      since: new Date(start + 2).toISOString(),
      lastError: "HTTP 429",
      failedDeliveries: 2,
    });
  });

  it("enabling the endpoint again closes its incident", async () => {
    const ws = await seedWorkspace();
    const receiver = await registerReceiver(ws);
    const start = Date.now();
    for (const at of [start, start + 1]) {
      const id = await pendingDelivery(ws, receiver.endpointId, at);
      await attemptDelivery(env, id, at, answering(500).fetchImpl);
    }
    expect((await endpoint(ws, receiver.endpointId)).health.status).toBe("failing");
    const changed = await expectJson<Endpoint>(
      await call("PATCH", `${PATH}/${receiver.endpointId}`, {
        token: ws.ownerToken,
        body: { status: "enabled" },
      }),
      200,
    );
    expect(changed.health).toEqual(HEALTHY);
  });
});

describe("autoRecover", () => {
  it("is false by default, set on create and by PATCH", async () => {
    const ws = await seedWorkspace();
    const plain = await registerReceiver(ws);
    expect((await endpoint(ws, plain.endpointId)).autoRecover).toBe(false);
    const created = await expectJson<Endpoint>(
      await call("POST", PATH, {
        token: ws.ownerToken,
        body: { url: "https://example.com/hooks", autoRecover: true },
      }),
      201,
    );
    expect(created.autoRecover).toBe(true);
    const changed = await expectJson<Endpoint>(
      await call("PATCH", `${PATH}/${created.id}`, {
        token: ws.ownerToken,
        body: { autoRecover: false },
      }),
      200,
    );
    expect(changed.autoRecover).toBe(false);
    expect((await endpoint(ws, created.id)).autoRecover).toBe(false);
  });

  it("the first success after a failing period sends again each delivery that failed in it, once", async () => {
    const ws = await seedWorkspace();
    const start = Date.now();
    const { receiver, before, failed } = await incident(ws, true, start);
    expect((await endpoint(ws, receiver.endpointId)).health.failedDeliveries).toBe(2);
    // The first success, with the real queue: the receiver gets the two failed events again.
    const ending = await pendingDelivery(ws, receiver.endpointId, start);
    await attemptDelivery(env, ending, start + 30, answering(200).fetchImpl);
    const wanted = await Promise.all(failed.map(eventIdOf));
    const got = await eventually(async () => {
      const counts = await receivedEventIds(receiver);
      return wanted.every((id) => counts.has(id)) ? counts : undefined;
    });
    // A later success sends nothing more.
    await attemptDelivery(
      env,
      await pendingDelivery(ws, receiver.endpointId, start),
      start + 40,
      answering(200).fetchImpl,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const counts = await receivedEventIds(receiver);
    expect(counts).toEqual(got);
    expect([...counts.entries()].sort()).toEqual(wanted.map((id) => [id, 1]).sort());
    // The delivery that failed before the incident (and its own retry) is left alone.
    expect(counts.has(await eventIdOf(before))).toBe(false);
    const rows = await storedDeliveries(ws.workspaceId);
    expect(rows.filter((row) => failed.includes(row.id)).map((row) => row.status)).toEqual([
      "succeeded",
      "succeeded",
    ]);
  });

  it.each([
    // The claim as a column of its own; before migration 0016, as a due time moved past it.
    ["claimed_until = ?1 + 60000", "claimed"],
    ["next_attempt_at = ?1 + 60000, updated_at = ?1", "claimed as before migration 0016"],
  ])(
    "leaves a failed delivery its own retry is sending to that attempt: sent once, not twice (%s, %s)",
    async (claim) => {
      const ws = await seedWorkspace();
      const start = Date.now();
      const { receiver, failed } = await incident(ws, true, start);
      const queue = recordingQueue();
      // failed[0]'s retry has claimed it and is sending it while another delivery ends the incident.
      await env.DB.prepare(`UPDATE event_deliveries SET ${claim} WHERE id = ?2`)
        .bind(start + 25, failed[0])
        .run();
      const ending = await pendingDelivery(ws, receiver.endpointId, start);
      await attemptDelivery(queue.env, ending, start + 30, answering(200).fetchImpl);
      expect(queue.sent).toEqual([failed[1]]);
    },
  );

  it("sends nothing again without autoRecover", async () => {
    const ws = await seedWorkspace();
    const start = Date.now();
    const { receiver } = await incident(ws, false, start);
    const queue = recordingQueue();
    const ending = await pendingDelivery(ws, receiver.endpointId, start);
    await attemptDelivery(queue.env, ending, start + 30, answering(200).fetchImpl);
    expect(queue.sent).toEqual([]);
    expect((await endpoint(ws, receiver.endpointId)).health).toEqual(HEALTHY);
  });

  it("two successes at once send each failed delivery again once", async () => {
    const ws = await seedWorkspace();
    const start = Date.now();
    const { receiver, failed } = await incident(ws, true, start);
    const queue = recordingQueue();
    const racing = [
      await pendingDelivery(ws, receiver.endpointId, start),
      await pendingDelivery(ws, receiver.endpointId, start),
    ];
    // Both claim while the endpoint is failing, and both succeed.
    await Promise.all(
      racing.map((id) => attemptDelivery(queue.env, id, start + 30, answering(200).fetchImpl)),
    );
    expect([...queue.sent].sort()).toEqual([...failed].sort());
    expect((await endpoint(ws, receiver.endpointId)).health).toEqual(HEALTHY);
  });
});
