/**
 * Event endpoints of a workspace (docs/events.md#event-endpoints): where lifecycle events go, signed
 * with a `whsec_` secret shown once and stored sealed; a rotated-out one signs on for 24 hours.
 */
import { and, eq, gt, isNull } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { EVENT_TYPES, type EventEndpoint, eventEndpoints } from "../db/event-tables";
import { workspaceRow } from "../db/rows";
import { bytesToBase64 } from "../platform/crypto";
import { invalidRequest } from "../platform/errors";
import { isoTime, newId } from "../platform/ids";
import { type OutboundPolicy, refusedDestination } from "../platform/outbound";
import { idsOf, type Page, type PageQuery, readPage } from "../platform/paging";
import { type Keyring, resealSecret, sealSecret } from "../platform/secret-box";
import { type EndpointHealth, healthOf } from "./incidents";
import type { CreateEventEndpoint, EventEndpointView, UpdateEventEndpoint } from "./schemas";

const HEALTHY: EndpointHealth = {
  status: "healthy",
  since: null,
  lastError: null,
  failedDeliveries: 0,
};

/** How long a rotated-out secret keeps signing (ms). */
export const PREVIOUS_SECRET_TTL_MS = 24 * 60 * 60_000;

/** The additional data an endpoint's secret is sealed with: it opens for that endpoint only. */
export const endpointSecretAad = (workspaceId: string, endpointId: string) =>
  `event-endpoint/${workspaceId}/${endpointId}`;

/** A new signing secret: `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
function newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `whsec_${bytesToBase64(bytes)}`;
}

/**
 * Refuses a URL events must not go to: not a URL, with credentials (they would be logged), not
 * https (http allowed with private destinations), or refused by the outbound policy
 * (docs/security.md#outbound-requests), which deliveries check again.
 * @throws ApiError 400 invalid_request naming `field`
 */
export function checkEndpointUrl(url: string, policy: OutboundPolicy, field = "url"): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  const problem = !parsed
    ? "Not a URL."
    : parsed.username || parsed.password
      ? "Credentials are not allowed in the URL; the signature authenticates us."
      : parsed.protocol !== "https:" && !(policy.allowPrivate && parsed.protocol === "http:")
        ? "Use https (http only where the Worker allows private destinations, for development)."
        : refusedDestination(parsed, policy);
  if (problem) {
    throw invalidRequest("The event endpoint is invalid.", [
      { field, code: "invalid_type", message: problem },
    ]);
  }
}

/** The endpoint as the API shows it (never its secret), with its health (`healthOf`). */
export function toEndpoint(row: EventEndpoint, health: EndpointHealth): EventEndpointView {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    status: row.status,
    includeTranscript: row.includeTranscript,
    autoRecover: row.autoRecover,
    health,
    createdAt: isoTime(row.createdAt),
    updatedAt: isoTime(row.updatedAt),
  };
}

/** The endpoints as the API shows them, each with its health (one D1 round trip at most). */
async function views(db: DrizzleD1Database, rows: EventEndpoint[]): Promise<EventEndpointView[]> {
  const health = await healthOf(db, rows);
  return rows.map((row, index) => toEndpoint(row, health[index] as EndpointHealth));
}

/** One endpoint as the API shows it. */
async function view(db: DrizzleD1Database, row: EventEndpoint): Promise<EventEndpointView> {
  return (await views(db, [row]))[0] as EventEndpointView;
}

/** Registers an endpoint; the answer carries its secret, the only time it is shown. */
export async function createEndpoint(
  db: DrizzleD1Database,
  key: Keyring,
  workspaceId: string,
  input: CreateEventEndpoint,
  policy: OutboundPolicy,
  now = Date.now(),
): Promise<EventEndpointView & { secret: string }> {
  checkEndpointUrl(input.url, policy);
  const id = newId("ep");
  const secret = newSecret();
  const row: EventEndpoint = {
    id,
    workspaceId,
    url: input.url,
    events: [...new Set(input.events ?? EVENT_TYPES)],
    description: input.description ?? null,
    status: "enabled",
    includeTranscript: input.includeTranscript ?? false,
    autoRecover: input.autoRecover ?? false,
    secretSealed: await sealSecret(key, secret, endpointSecretAad(workspaceId, id)),
    previousSecretSealed: null,
    previousSecretExpiresAt: null,
    failingSince: null,
    consecutiveFailures: 0,
    lastError: null,
    lastIncidentSince: null,
    createdAt: now,
    updatedAt: now,
  };
  await db.insert(eventEndpoints).values(row);
  return { ...toEndpoint(row, HEALTHY), secret };
}

/** The workspace's endpoint. @throws ApiError 404 not_found */
export async function findEndpoint(db: DrizzleD1Database, workspaceId: string, id: string) {
  const missing = "No such event endpoint in this workspace.";
  return workspaceRow(db, eventEndpoints, workspaceId, id, missing);
}

/**
 * A page of the workspace's endpoints, newest first (then by id), docs/api/README.md#lists-and-paging.
 * @throws ApiError 400 invalid_request for a cursor not given out
 */
export async function listEndpoints(
  db: DrizzleD1Database,
  workspaceId: string,
  query: PageQuery,
): Promise<Page<EventEndpointView>> {
  const where = eq(eventEndpoints.workspaceId, workspaceId);
  const list = { ids: ENDPOINT_ID, order: "desc" } as const;
  const page = await readPage(db, eventEndpoints, where, query, list, (row) => row);
  return { ...page, data: await views(db, page.data) };
}

/** An endpoint id, as a cursor names it. */
const ENDPOINT_ID = idsOf("ep");

/** One endpoint. @throws ApiError 404 not_found */
export async function getEndpoint(db: DrizzleD1Database, workspaceId: string, id: string) {
  return view(db, await findEndpoint(db, workspaceId, id));
}

/** Changes the given fields. @throws ApiError 404 not_found, 400 invalid_request for the URL */
export async function updateEndpoint(
  db: DrizzleD1Database,
  workspaceId: string,
  id: string,
  input: UpdateEventEndpoint,
  policy: OutboundPolicy,
  now = Date.now(),
): Promise<EventEndpointView> {
  const row = await findEndpoint(db, workspaceId, id);
  if (input.url !== undefined) checkEndpointUrl(input.url, policy);
  const changes = {
    ...(input.url !== undefined ? { url: input.url } : {}),
    ...(input.events !== undefined ? { events: [...new Set(input.events)] } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    // Enabling (or disabling) starts the 5-day count of failures afresh and closes the incident.
    ...(input.status !== undefined
      ? { status: input.status, failingSince: null, consecutiveFailures: 0, lastError: null }
      : {}),
    ...(input.autoRecover !== undefined ? { autoRecover: input.autoRecover } : {}),
    ...(input.includeTranscript !== undefined
      ? { includeTranscript: input.includeTranscript }
      : {}),
    updatedAt: now,
  };
  await db.update(eventEndpoints).set(changes).where(eq(eventEndpoints.id, row.id));
  return view(db, { ...row, ...changes });
}

/** Deletes an endpoint; nothing more is delivered to it. @throws ApiError 404 not_found */
export async function deleteEndpoint(db: DrizzleD1Database, workspaceId: string, id: string) {
  const row = await findEndpoint(db, workspaceId, id);
  await db.delete(eventEndpoints).where(eq(eventEndpoints.id, row.id));
}

/** Gives the endpoint a new secret, shown once; the old signs on for 24 h. @throws ApiError 404 */
export async function rotateSecret(
  db: DrizzleD1Database,
  key: Keyring,
  workspaceId: string,
  id: string,
  now = Date.now(),
): Promise<EventEndpointView & { secret: string }> {
  const row = await findEndpoint(db, workspaceId, id);
  const secret = newSecret();
  const changes = {
    secretSealed: await sealSecret(key, secret, endpointSecretAad(workspaceId, id)),
    previousSecretSealed: row.secretSealed,
    previousSecretExpiresAt: now + PREVIOUS_SECRET_TTL_MS,
    updatedAt: now,
  };
  await db.update(eventEndpoints).set(changes).where(eq(eventEndpoints.id, row.id));
  return { ...(await view(db, { ...row, ...changes })), secret };
}

/**
 * Reseals the next page of endpoints' signing secrets, unless changed meanwhile
 * (docs/security.md#rotating-keys).
 * @param after the last endpoint id of the previous page (null: from the first)
 * @returns where to go on (null once done) and how many secrets were resealed
 */
export async function resealEndpointSecrets(
  db: DrizzleD1Database,
  ring: Keyring,
  after: string | null,
  limit: number,
): Promise<{ next: string | null; resealed: number }> {
  const rows = await db
    .select()
    .from(eventEndpoints)
    .where(after ? gt(eventEndpoints.id, after) : undefined)
    .orderBy(eventEndpoints.id)
    .limit(limit);
  let resealed = 0;
  for (const row of rows) {
    const aad = endpointSecretAad(row.workspaceId, row.id);
    const current = await resealSecret(ring, row.secretSealed, aad);
    const previous = row.previousSecretSealed
      ? await resealSecret(ring, row.previousSecretSealed, aad)
      : null;
    if (current === null && previous === null) continue;
    const changed = await db
      .update(eventEndpoints)
      .set({
        secretSealed: current ?? row.secretSealed,
        previousSecretSealed: previous ?? row.previousSecretSealed,
      })
      .where(
        and(
          eq(eventEndpoints.id, row.id),
          eq(eventEndpoints.secretSealed, row.secretSealed),
          row.previousSecretSealed === null
            ? isNull(eventEndpoints.previousSecretSealed)
            : eq(eventEndpoints.previousSecretSealed, row.previousSecretSealed),
        ),
      )
      .returning({ id: eventEndpoints.id });
    if (changed.length > 0) resealed += (current ? 1 : 0) + (previous ? 1 : 0);
  }
  return { next: rows.length < limit ? null : (rows.at(-1)?.id ?? null), resealed };
}
