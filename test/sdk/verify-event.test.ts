/**
 * The SDK's verifyEvent (docs/events.md#signatures) on real deliveries of the Worker: it returns the
 * typed event and throws EventVerificationError for an altered body, another secret, an old
 * timestamp or a body whose id is not the webhook-id.
 */
import { describe, expect, it } from "vitest";
import {
  type EndReason,
  type EventRating,
  EventVerificationError,
  type LifecycleEvent,
  verifyEvent,
} from "../../sdk/src/index";
import { END_REASONS } from "../../src/conversations/conversation/contract";
import { call, eventually, seedWorkspace } from "../helpers/api";
import { connect, createLaunch, open } from "../helpers/chat";
import { received, registerReceiver } from "../helpers/events";

describe("verifyEvent", () => {
  it("returns the typed event of a real delivery and refuses anything else", async () => {
    const ws = await seedWorkspace();
    const receiver = await registerReceiver(ws, { events: ["link.created"] });
    const other = await registerReceiver(ws, { events: ["link.revoked"] });
    const link = await createLaunch(ws, { metadata: { crm: "cus_7" } });
    const [delivery] = await eventually(async () => {
      const got = await received(receiver);
      return got.length > 0 ? got : undefined;
    });
    if (!delivery) throw new Error("no delivery");

    const event = verifyEvent(delivery.body, new Headers(delivery.headers), receiver.secret);
    expect(event.type).toBe("link.created");
    const data = (event as LifecycleEvent).data;
    expect(data.link).toMatchObject({ id: link.id, metadata: { crm: "cus_7" } });
    expect(verifyEvent(delivery.body, delivery.headers, receiver.secret).id).toBe(event.id);

    const refused = [
      () => verifyEvent(delivery.body.replace("cus_7", "cus_8"), delivery.headers, receiver.secret),
      () => verifyEvent(delivery.body, delivery.headers, other.secret),
      () =>
        verifyEvent(
          delivery.body,
          {
            ...delivery.headers,
            "webhook-timestamp": String(Math.floor(Date.now() / 1000) - 3600),
          },
          receiver.secret,
        ),
    ];
    for (const attempt of refused) expect(attempt).toThrow(EventVerificationError);
  });
});

describe("verifyEvent of conversation.rated", () => {
  it("types the rating: score, comment and time", async () => {
    const ws = await seedWorkspace();
    const receiver = await registerReceiver(ws, { events: ["conversation.rated"] });
    const link = await createLaunch(ws);
    const client = await connect((await open(link.token)).socketUrl as string);
    client.send({ type: "end" });
    await client.next("ended");
    const body = { token: link.token, score: 5, comment: "Great" };
    expect((await call("POST", "/v1/chat/rating", { body })).status).toBe(201);
    const [delivery] = await eventually(async () => {
      const got = await received(receiver);
      return got.length > 0 ? got : undefined;
    });
    if (!delivery) throw new Error("no delivery");
    const event = verifyEvent(delivery.body, delivery.headers, receiver.secret) as LifecycleEvent;
    expect(event.type).toBe("conversation.rated");
    const rating: EventRating | undefined = event.data.rating;
    expect(rating).toMatchObject({ score: 5, comment: "Great" });
    expect(rating?.ratedAt).toMatch(/Z$/);
  });
});

describe("EndReason", () => {
  it("is the service's END_REASONS, one word per end (a revoked open link is `server`)", () => {
    // Both ways: each reason the service has is the SDK's, and the SDK has no other.
    const sdk: readonly EndReason[] = END_REASONS;
    const service: readonly (typeof END_REASONS)[number][] = [] as EndReason[];
    // @ts-expect-error `revoked` is a link status, not a reason a conversation ended
    const revoked: EndReason = "revoked";
    expect([sdk, service, revoked]).toHaveLength(3);
  });
});
