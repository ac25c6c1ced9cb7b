/**
 * Lifecycle events end to end (docs/events.md): a receiver registered as an endpoint gets signed
 * link.created, conversation.started and conversation.ended deliveries through the queue, which
 * the official Standard Webhooks verifier accepts, with one retry after a 500.
 */
import { describe, expect, it } from "vitest";
import { eventually, seedWorkspace } from "../helpers/api";
import { connect, createLaunch, open } from "../helpers/chat";
import {
  eventsOfTypes,
  received,
  registerReceiver,
  storedDeliveries,
  storedEvents,
} from "../helpers/events";

describe("lifecycle events, end to end", () => {
  it("delivers signed link.created, conversation.started and conversation.ended; retries a 500", async () => {
    const ws = await seedWorkspace();
    const receiver = await registerReceiver(ws, { fail: 1 });
    const link = await createLaunch(ws, { metadata: { crm: "cus_42" } });
    const session = await open(link.token);
    const client = await connect(session.socketUrl as string);
    client.send({ type: "end" });
    await client.next("ended");

    // Three events, the first of which got a 500 and came again 5 s later.
    const requests = await eventually(async () => {
      const got = await received(receiver);
      return got.length >= 4 ? got : undefined;
    }, 20_000);
    const events = await eventsOfTypes(receiver, [
      "link.created",
      "conversation.started",
      "conversation.ended",
    ]);
    const ended = events.get("conversation.ended");
    expect(ended?.data.reason).toBe("person");
    expect(ended?.data.link).toMatchObject({
      id: link.id,
      status: "ended",
      metadata: { crm: "cus_42" },
    });
    expect(ended?.data.conversation).toMatchObject({
      sessionId: session.sessionId,
      status: "ended",
    });
    expect(events.get("conversation.started")?.data.conversation?.status).toBe("in-progress");
    const ids = requests.map((request) => request.headers["webhook-id"]);
    expect(new Set(ids).size).toBe(3);
    expect(ids.length).toBe(4);
    const [failed, ...rest] = requests;
    const retry = rest.find(
      (request) => request.headers["webhook-id"] === failed?.headers["webhook-id"],
    );
    // The retry waited the schedule's first step (5 s, with 10 % jitter) and was signed afresh.
    const waited =
      Number(retry?.headers["webhook-timestamp"]) - Number(failed?.headers["webhook-timestamp"]);
    expect(waited).toBeGreaterThanOrEqual(4);
    expect(retry?.body).toBe(failed?.body);
    expect(JSON.stringify(requests)).not.toContain(link.token);
    // Never the parameters (launchBody's `plan: "basic"`), in no event.
    for (const event of events.values()) expect(event.data.link).not.toHaveProperty("parameters");
    expect(requests.every((request) => !request.body.includes("basic"))).toBe(true);
    expect((await storedEvents(ws.workspaceId)).map((event) => event.type).sort()).toEqual([
      "conversation.ended",
      "conversation.started",
      "link.created",
    ]);
    const deliveries = await storedDeliveries(ws.workspaceId);
    expect(deliveries.every((delivery) => delivery.status === "succeeded")).toBe(true);
    expect(deliveries.map((delivery) => delivery.attempts).sort()).toEqual([1, 1, 2]);
  }, 40_000);
});
