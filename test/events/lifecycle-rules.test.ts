/**
 * When each lifecycle event happens (docs/events.md#event-types), with the outbox's guarantees:
 * events are written with the change that causes them or not at all, once per link and type, only
 * while an endpoint listens; the ledger's alarm records link.expired and relays what the queue
 * never got (an object evicted between commit and send).
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../../src/db/database";
import { links } from "../../src/db/schema";
import { relayStaleDeliveries } from "../../src/events";
import { createStatements } from "../../src/launch/ledger/lifecycle-events";
import { D1WriteBatcher } from "../../src/platform/d1-write-batcher";
import { call, eventually, launchBody, seedWorkspace, type Workspace } from "../helpers/api";
import { connect, createLaunch, open } from "../helpers/chat";
import {
  eventIdOf,
  eventsOfTypes,
  pendingDelivery,
  received,
  registerReceiver,
  storedDeliveries,
  storedEvents,
  verifiedEvents,
} from "../helpers/events";
import { insertPendingLinks } from "../helpers/seed-links";

const storedStatuses = async (...ids: string[]) =>
  Promise.all(
    ids.map(async (id) => {
      const row = await env.DB.prepare("SELECT status FROM links WHERE id = ?").bind(id).first();
      return row?.status;
    }),
  );
const ledger = (ws: Workspace) => env.LINK_LEDGER.get(env.LINK_LEDGER.idFromName(ws.workspaceId));
describe("lifecycle events", () => {
  it("writes none while no enabled endpoint listens to the type", async () => {
    const ws = await seedWorkspace();
    const receiver = await registerReceiver(ws, { events: ["link.revoked"] });
    const link = await createLaunch(ws);
    await call("PATCH", `/v1/manage/event-endpoints/${receiver.endpointId}`, {
      token: ws.ownerToken,
      body: { status: "disabled" },
    });
    await call("DELETE", `/v1/widget/launches/${link.id}`, { token: ws.widgetKey });
    expect(await storedEvents(ws.workspaceId)).toEqual([]);
    expect(await storedDeliveries(ws.workspaceId)).toEqual([]);
  });

  it("an idempotent replay of a create records no second link.created", async () => {
    const ws = await seedWorkspace();
    await registerReceiver(ws, { events: ["link.created"] });
    for (let i = 0; i < 2; i++) {
      const created = await call("POST", "/v1/widget/launches", {
        token: ws.widgetKey,
        body: launchBody(ws),
        headers: { "idempotency-key": "create-once" },
      });
      expect(created.status).toBe(201);
    }
    expect((await storedEvents(ws.workspaceId)).map((event) => event.type)).toEqual([
      "link.created",
    ]);
  });

  it("revoking an open link sends link.revoked and conversation.ended (server); once each", async () => {
    const ws = await seedWorkspace();
    const receiver = await registerReceiver(ws, {
      events: ["link.revoked", "conversation.ended"],
    });
    const link = await createLaunch(ws);
    await open(link.token);
    for (let i = 0; i < 2; i++) {
      await call("DELETE", `/v1/widget/launches/${link.id}`, { token: ws.widgetKey });
    }
    const events = await eventsOfTypes(receiver, ["link.revoked", "conversation.ended"]);
    expect(events.get("link.revoked")?.data.link.status).toBe("revoked");
    expect(events.get("conversation.ended")?.data.reason).toBe("server");
    expect((await storedEvents(ws.workspaceId)).length).toBe(2);
  });

  it("ending from the server sends conversation.ended (server), with the transcript when asked", async () => {
    const ws = await seedWorkspace();
    const receiver = await registerReceiver(ws, {
      events: ["conversation.ended"],
      includeTranscript: true,
    });
    const plain = await registerReceiver(ws, { events: ["conversation.ended"] });
    const link = await createLaunch(ws);
    const client = await connect((await open(link.token)).socketUrl as string);
    client.send({ type: "message", text: "Where is my parcel?" });
    await client.next("message");
    await call("POST", `/v1/widget/launches/${link.id}/end`, { token: ws.widgetKey });
    const ended = (await eventsOfTypes(receiver, ["conversation.ended"])).get("conversation.ended");
    expect(ended?.data.reason).toBe("server");
    expect(ended?.data.messages?.map((m) => m.text)).toContain("Where is my parcel?");
    const bare = (await eventsOfTypes(plain, ["conversation.ended"])).get("conversation.ended");
    expect(bare?.data.messages).toBeUndefined();
    expect(bare?.id).toBe(ended?.id);
  });

  it("carries the conversation's own reason: idle and agent", async () => {
    const ws = await seedWorkspace();
    const receiver = await registerReceiver(ws, { events: ["conversation.ended"] });
    const reasons: string[] = [];
    for (const reason of ["idle", "agent"] as const) {
      const link = await createLaunch(ws);
      const session = await open(link.token);
      await env.CONVERSATION.get(env.CONVERSATION.idFromName(session.sessionId)).end(reason);
      const byLink = await eventually(async () => {
        const events = await verifiedEvents(receiver);
        return events.find((event) => event.data.link.id === link.id);
      });
      reasons.push(byLink.data.reason ?? "");
    }
    expect(reasons).toEqual(["idle", "agent"]);
  });

  it("sets the ledger's alarm to relay soon after a write, then to the next expiry", async () => {
    const ws = await seedWorkspace();
    await registerReceiver(ws, { events: ["link.expired"] });
    const before = Date.now();
    await createLaunch(ws, { expiresInSeconds: 300 });
    const alarm = () =>
      runInDurableObject(ledger(ws), (_instance, state: DurableObjectState) =>
        state.storage.getAlarm(),
      );
    // Within the relay grace (2 min) of the write.
    expect(await alarm()).toBeLessThanOrEqual(Date.now() + 120_000);
    expect(await runDurableObjectAlarm(ledger(ws))).toBe(true);
    // Then at the link's expiry (5 min), so link.expired goes out within a minute of it.
    const next = (await alarm()) as number;
    expect(next).toBeGreaterThanOrEqual(before + 300_000);
    expect(next).toBeLessThanOrEqual(Date.now() + 300_000 + 10_000);
  });

  it("records link.expired on the ledger's alarm for a link never opened", async () => {
    const ws = await seedWorkspace();
    const receiver = await registerReceiver(ws, { events: ["link.expired"] });
    const link = await createLaunch(ws);
    const opened = await createLaunch(ws);
    await open(opened.token);
    // Both links expire now (the opened one no longer counts: it was opened in time).
    await new Promise((resolve) => setTimeout(resolve, 5));
    await env.DB.prepare("UPDATE links SET expires_at = ? WHERE id IN (?, ?)")
      .bind(Date.now() - 1, link.id, opened.id)
      .run();
    expect(await runDurableObjectAlarm(ledger(ws))).toBe(true);
    const expired = (await eventsOfTypes(receiver, ["link.expired"])).get("link.expired");
    expect(expired?.data.link).toMatchObject({ id: link.id, status: "expired" });
    await runDurableObjectAlarm(ledger(ws));
    expect((await storedEvents(ws.workspaceId)).map((event) => event.link_id)).toEqual([link.id]);
    // Stored as expired: out of the pending range the pending cap's load and the alarm read.
    expect(await storedStatuses(link.id, opened.id)).toEqual(["expired", "active"]);
  });

  it("stores expired on a link that expired before the ledger watched, with no link.expired", async () => {
    const ws = await seedWorkspace();
    await registerReceiver(ws, { events: ["link.expired"] });
    const link = await createLaunch(ws);
    // Expired a minute before the ledger's first write (where its expiry watch starts).
    await env.DB.prepare("UPDATE links SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 60_000, link.id)
      .run();
    await runDurableObjectAlarm(ledger(ws));
    expect(await storedStatuses(link.id)).toEqual(["expired"]);
    expect(await storedEvents(ws.workspaceId)).toEqual([]);
  });

  it("relays a delivery whose message never reached the queue (evicted after the commit)", async () => {
    const ws = await seedWorkspace();
    const receiver = await registerReceiver(ws, { events: ["link.created"] });
    const link = await createLaunch(ws);
    await eventsOfTypes(receiver, ["link.created"]);
    // As if the object had been evicted between the commit and the send: a pending delivery,
    // overdue, of which the queue knows nothing.
    const [delivery] = await storedDeliveries(ws.workspaceId);
    await env.DB.prepare(
      "UPDATE event_deliveries SET status = 'pending', step = 0, next_attempt_at = ? WHERE id = ?",
    )
      .bind(Date.now() - 10 * 60_000, delivery?.id)
      .run();
    expect(await runDurableObjectAlarm(ledger(ws))).toBe(true);
    const twice = async () => ((await received(receiver)).length >= 2 ? true : undefined);
    await eventually(twice);
    const requests = await received(receiver);
    expect(requests[1]?.headers["webhook-id"]).toBe(requests[0]?.headers["webhook-id"]);
    expect(JSON.parse(requests[1]?.body ?? "{}").data.link.id).toBe(link.id);
  });

  it("relays no overdue delivery a consumer holds, until its claim ends", async () => {
    const ws = await seedWorkspace();
    const receiver = await registerReceiver(ws, { events: ["link.created"] });
    const now = Date.now();
    const id = await pendingDelivery(ws, receiver.endpointId, now - 10 * 60_000);
    await env.DB.prepare("UPDATE event_deliveries SET claimed_until = ? WHERE id = ?")
      .bind(now + 30_000, id)
      .run();
    const sent: unknown[] = [];
    const queue = { sendBatch: async (messages: unknown[]) => void sent.push(...messages) };
    const bindings = { ...env, EVENT_DELIVERIES: queue } as never;
    await relayStaleDeliveries(bindings, database(env), ws.workspaceId, now);
    expect(sent).toEqual([]);
    await relayStaleDeliveries(bindings, database(env), ws.workspaceId, now + 30_000);
    const eventId = await eventIdOf(id);
    // The message carries the event and the endpoint, so the attempt reads them directly.
    expect(sent).toEqual([
      {
        body: { deliveryId: id, eventId, endpointId: receiver.endpointId },
        delaySeconds: 0,
      },
    ]);
  });

  it("writes the event with the change or not at all: a create that fails records nothing", async () => {
    const ws = await seedWorkspace();
    await registerReceiver(ws);
    const link = await createLaunch(ws);
    const row = await database(env).select().from(links).where(eq(links.id, link.id)).get();
    if (!row) throw new Error("no link");
    const before = (await storedEvents(ws.workspaceId)).length;
    // Another link with the same token hash: its insert fails, and the event's statements with it.
    const copy = { ...row, id: `lnk_copy${Date.now()}`, createdAt: Date.now() };
    await expect(
      new D1WriteBatcher(env.DB).runAll(createStatements(env.DB, copy)),
    ).rejects.toThrow();
    expect((await storedEvents(ws.workspaceId)).length).toBe(before);
    expect(await storedDeliveries(ws.workspaceId)).toHaveLength(before);
  });
  it("records every expiry when more links share one expiry time than a firing takes", async () => {
    const ws = await seedWorkspace();
    await registerReceiver(ws, { events: ["link.expired"] });
    await createLaunch(ws);
    const expiresAt = Date.now() + 20;
    await insertPendingLinks(ws.workspaceId, ws.agentId, ws.channelId, 1_101, expiresAt);
    await new Promise((resolve) => setTimeout(resolve, 40));
    const expired = async () =>
      (await storedEvents(ws.workspaceId)).filter((event) => event.type === "link.expired").length;
    // The deliveries are not this test's subject: dropped, so the queue's messages find nothing
    // to send instead of keeping the shared consumer busy for the other tests.
    const dropDeliveries = () =>
      env.DB.prepare("DELETE FROM event_deliveries WHERE workspace_id = ?")
        .bind(ws.workspaceId)
        .run();
    expect(await runDurableObjectAlarm(ledger(ws))).toBe(true);
    await dropDeliveries();
    expect(await expired()).toBe(1_000);
    expect(await runDurableObjectAlarm(ledger(ws))).toBe(true);
    await dropDeliveries();
    expect(await expired()).toBe(1_101);
  });
});
