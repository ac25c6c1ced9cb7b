/**
 * The delivery log (docs/events.md#delivery-log): deliveries listed newest first with their
 * attempts, filtered and paged; resend; recover since a time; a test event; and who may do what.
 */
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { call, eventually, expectJson, seedWorkspace } from "../helpers/api";
import { createLaunch } from "../helpers/chat";
import { expectError } from "../helpers/errors";
import { received, registerReceiver, storedDeliveries } from "../helpers/events";
import { ECHO_URL, echoGates } from "../helpers/workflows";

const PATH = "/v1/manage/event-endpoints";
type Delivery = {
  id: string;
  eventId: string;
  eventType: string;
  status: string;
  attempts: { responseStatus: number | null; latencyMs: number }[];
  nextAttemptAt: string | null;
};
type Page = { data: Delivery[]; hasMore: boolean; nextCursor: string | null };

describe("the delivery log", () => {
  it("lists deliveries newest first, by status, in pages; resends one", async () => {
    const ws = await seedWorkspace();
    const receiver = await registerReceiver(ws, { events: ["link.created"] });
    for (let i = 0; i < 3; i++) await createLaunch(ws);
    await eventually(async () =>
      (await storedDeliveries(ws.workspaceId)).every((row) => row.status === "succeeded") &&
      (await received(receiver)).length === 3
        ? true
        : undefined,
    );
    const log = `${PATH}/${receiver.endpointId}/deliveries`;
    const first = await expectJson<Page>(
      await call("GET", `${log}?limit=2&status=succeeded`, { token: ws.ownerToken }),
      200,
    );
    expect(first.data).toHaveLength(2);
    expect(first.hasMore).toBe(true);
    expect(first.data[0]).toMatchObject({ eventType: "link.created", status: "succeeded" });
    expect(first.data[0]?.attempts[0]?.responseStatus).toBe(200);
    const second = await expectJson<Page>(
      await call("GET", `${log}?limit=2&cursor=${first.nextCursor}`, { token: ws.ownerToken }),
      200,
    );
    expect(second).toMatchObject({ hasMore: false, nextCursor: null });
    expect(second.data).toHaveLength(1);
    expect(
      (
        await expectJson<Page>(
          await call("GET", `${log}?status=failed`, { token: ws.ownerToken }),
          200,
        )
      ).data,
    ).toEqual([]);
    await expectError(
      await call("GET", `${log}?cursor=nope`, { token: ws.ownerToken }),
      400,
      "invalid_request",
    );
    await expectError(
      await call("GET", `${log}?page=2`, { token: ws.ownerToken }),
      400,
      "invalid_request",
    );

    const resent = await expectJson<Delivery>(
      await call("POST", `${log}/${first.data[0]?.id}/resend`, { token: ws.ownerToken }),
      202,
    );
    expect(resent.status).toBe("pending");
    await eventually(async () => ((await received(receiver)).length === 4 ? true : undefined));
    const again = (await received(receiver)).at(-1);
    expect(again?.headers["webhook-id"]).toBe(first.data[0]?.eventId);
  });

  it("recovers the failed deliveries since a time, once the receiver works again", async () => {
    const ws = await seedWorkspace();
    const receiver = await registerReceiver(ws, { events: ["link.created"] });
    const link = await createLaunch(ws);
    await eventually(async () => ((await received(receiver)).length === 1 ? true : undefined));
    // As if every retry had failed.
    await env.DB.prepare(
      "UPDATE event_deliveries SET status = 'failed', next_attempt_at = NULL WHERE workspace_id = ?",
    )
      .bind(ws.workspaceId)
      .run();
    const recover = `${PATH}/${receiver.endpointId}/recover`;
    const future = new Date(Date.now() + 60_000).toISOString();
    expect(
      await expectJson(
        await call("POST", recover, { token: ws.ownerToken, body: { since: future } }),
        202,
      ),
    ).toEqual({ recovered: 0 });
    const since = new Date(Date.now() - 60_000).toISOString();
    expect(
      await expectJson(await call("POST", recover, { token: ws.ownerToken, body: { since } }), 202),
    ).toEqual({ recovered: 1 });
    await eventually(async () => ((await received(receiver)).length === 2 ? true : undefined));
    expect(JSON.parse((await received(receiver))[1]?.body ?? "{}").data.link.id).toBe(link.id);
    await expectError(
      await call("POST", recover, { token: ws.ownerToken, body: { since: "yesterday" } }),
      400,
      "invalid_request",
    );
  });

  it("sends a test event now and answers with its delivery; signed with both secrets after a rotation", async () => {
    const ws = await seedWorkspace();
    const receiver = await registerReceiver(ws);
    const rotated = await expectJson<{ secret: string }>(
      await call("POST", `${PATH}/${receiver.endpointId}/rotate-secret`, { token: ws.ownerToken }),
      200,
    );
    const delivery = await expectJson<Delivery>(
      await call("POST", `${PATH}/${receiver.endpointId}/test`, { token: ws.ownerToken }),
      200,
    );
    expect(delivery).toMatchObject({
      eventType: "event.test",
      status: "succeeded",
      nextAttemptAt: null,
    });
    expect(delivery.attempts).toHaveLength(1);
    const [request] = await received(receiver);
    expect(request?.headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    for (const secret of [receiver.secret, rotated.secret]) {
      const event = new Webhook(secret).verify(request?.body ?? "", request?.headers ?? {});
      expect(event).toMatchObject({ id: delivery.eventId, type: "event.test" });
    }
  });

  it("refuses members, unknown ids and a disabled endpoint in the one envelope", async () => {
    const ws = await seedWorkspace();
    const receiver = await registerReceiver(ws);
    const member = await expectJson<{ memberToken: string }>(
      await call("POST", "/v1/manage/members", {
        token: ws.ownerToken,
        body: { email: "reader@example.com", name: "R", role: "member" },
      }),
      201,
    );
    const base = `${PATH}/${receiver.endpointId}`;
    expect((await call("GET", `${base}/deliveries`, { token: member.memberToken })).status).toBe(
      200,
    );
    await expectError(
      await call("POST", `${base}/test`, { token: member.memberToken }),
      403,
      "insufficient_scope",
    );
    await expectError(
      await call("GET", `${PATH}/ep_nope/deliveries`, { token: ws.ownerToken }),
      404,
      "not_found",
    );
    await expectError(
      await call("POST", `${base}/deliveries/dlv_nope/resend`, { token: ws.ownerToken }),
      404,
      "not_found",
    );
    await call("PATCH", base, { token: ws.ownerToken, body: { status: "disabled" } });
    await expectError(
      await call("POST", `${base}/recover`, {
        token: ws.ownerToken,
        body: { since: new Date().toISOString() },
      }),
      409,
      "endpoint_disabled",
    );
  });

  it("a test event whose endpoint is deleted during the attempt is 404, not a 500", async () => {
    const ws = await seedWorkspace();
    const gates = echoGates("deleted-endpoint");
    const endpoint = await expectJson<{ id: string }>(
      await call("POST", PATH, {
        token: ws.ownerToken,
        body: { url: `${ECHO_URL}/hold/${gates.gate("test")}` },
      }),
      201,
    );
    const testing = call("POST", `${PATH}/${endpoint.id}/test`, { token: ws.ownerToken });
    await eventually(async () => ((await gates.hits("test")) > 0 ? true : undefined));
    expect((await call("DELETE", `${PATH}/${endpoint.id}`, { token: ws.ownerToken })).status).toBe(
      204,
    );
    await gates.release("test");
    await expectError(await testing, 404, "not_found");
    expect(await storedDeliveries(ws.workspaceId)).toEqual([]);
  });
});
