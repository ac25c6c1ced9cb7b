/**
 * Test helpers for lifecycle events (docs/events.md): a receiver on the echo server registered as
 * an event endpoint, what it received, the D1 rows of events and deliveries, and polling.
 */
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { call, eventually, expectJson, type Workspace } from "./api";
import { ECHO_URL } from "./workflows";

export type Receiver = { endpointId: string; secret: string; name: string };
export type Received = { headers: Record<string, string>; body: string };
export type EventBody = {
  id: string;
  type: string;
  createdAt: string;
  data: {
    link: Record<string, unknown> & { id: string; status: string };
    conversation: { sessionId: string; status: string; endedAt: string | null } | null;
    reason?: string;
    messages?: { role: string; text: string }[];
  };
};

let receivers = 0;

/** Registers an endpoint on the echo server; `fail` first requests get 500. */
export async function registerReceiver(
  ws: Workspace,
  options: { fail?: number; events?: string[]; includeTranscript?: boolean } = {},
): Promise<Receiver> {
  receivers += 1;
  const name = `r${receivers}-${crypto.randomUUID()}`;
  const { fail = 0, ...rest } = options;
  const created = await expectJson<{ id: string; secret: string }>(
    await call("POST", "/v1/manage/event-endpoints", {
      token: ws.ownerToken,
      body: { url: `${ECHO_URL}/receiver/${name}?fail=${fail}`, ...rest },
    }),
    201,
  );
  return { endpointId: created.id, secret: created.secret, name };
}

/** Every request the receiver got, oldest first. */
export async function received(receiver: Receiver): Promise<Received[]> {
  return (await fetch(`${ECHO_URL}/received/${receiver.name}`)).json();
}

/** The verified events among what the receiver got (the official Standard Webhooks verifier). */
export async function verifiedEvents(receiver: Receiver): Promise<EventBody[]> {
  const webhook = new Webhook(receiver.secret);
  return (await received(receiver)).map(
    (request) => webhook.verify(request.body, request.headers) as EventBody,
  );
}

/** Waits until the receiver has events of these types (in any order) and returns them by type. */
export async function eventsOfTypes(
  receiver: Receiver,
  types: string[],
  ms?: number,
): Promise<Map<string, EventBody>> {
  return eventually(async () => {
    const byType = new Map((await verifiedEvents(receiver)).map((e) => [e.type, e] as const));
    return types.every((type) => byType.has(type)) ? byType : undefined;
  }, ms);
}

/** The workspace's stored events, oldest first. */
export async function storedEvents(workspaceId: string) {
  const rows = await env.DB.prepare(
    "SELECT id, link_id, type FROM events WHERE workspace_id = ? ORDER BY created_at, id",
  )
    .bind(workspaceId)
    .all<{ id: string; link_id: string | null; type: string }>();
  return rows.results;
}

/** The workspace's deliveries. */
export async function storedDeliveries(workspaceId: string) {
  const rows = await env.DB.prepare(
    "SELECT id, endpoint_id, event_id, status, attempts, step, next_attempt_at FROM event_deliveries WHERE workspace_id = ?",
  )
    .bind(workspaceId)
    .all<{
      id: string;
      endpoint_id: string;
      event_id: string;
      status: string;
      attempts: number;
      step: number;
      next_attempt_at: number | null;
    }>();
  return rows.results;
}

/**
 * An event with one pending delivery to the endpoint, due at `now`, written as the outbox would
 * (no queue message: the test attempts it with `attemptDelivery`).
 */
export async function pendingDelivery(
  ws: Workspace,
  endpointId: string,
  now: number,
): Promise<string> {
  const eventId = `evt_${crypto.randomUUID().replaceAll("-", "")}`;
  const deliveryId = `dlv_${crypto.randomUUID().replaceAll("-", "")}`;
  const body = JSON.stringify({ id: eventId, type: "link.created", createdAt: "", data: {} });
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO events (id, workspace_id, link_id, type, body, created_at) VALUES (?, ?, NULL, 'link.created', ?, ?)",
    ).bind(eventId, ws.workspaceId, body, now),
    env.DB.prepare(
      "INSERT INTO event_deliveries (id, workspace_id, endpoint_id, event_id, status, attempts, step, next_attempt_at, created_at, updated_at) VALUES (?, ?, ?, ?, 'pending', 0, 0, ?, ?, ?)",
    ).bind(deliveryId, ws.workspaceId, endpointId, eventId, now, now, now),
  ]);
  return deliveryId;
}

/** A fetch for `attemptDelivery` that answers every attempt with `status`, and the requests it got. */
export const answering = (status: number, body = "") => {
  const calls: Request[] = [];
  const fetchImpl = (async (input: RequestInfo, init?: RequestInit) => {
    calls.push(new Request(input, init));
    return new Response(body, { status });
  }) as typeof fetch;
  return { calls, fetchImpl };
};

/** The event ids `receiver` got, with how many times each. */
export async function receivedEventIds(receiver: Receiver): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const request of await received(receiver)) {
    const id = (JSON.parse(request.body) as { id: string }).id;
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/** The id of the event delivery `deliveryId` carries; throws when there is no such delivery. */
export async function eventIdOf(deliveryId: string): Promise<string> {
  const row = await env.DB.prepare("SELECT event_id FROM event_deliveries WHERE id = ?")
    .bind(deliveryId)
    .first<{ event_id: string }>();
  if (!row) throw new Error(`no event delivery ${deliveryId}`);
  return row.event_id;
}
