/**
 * Links of the Widget Launch API: create, look up, revoke (docs/api/launch.md#operations), and opening
 * (pending → active) for the conversation to build on. Each launch call is one call to the
 * workspace's link ledger, which counts it and does the work. Never sees a Hono context.
 */
import { eq } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { WidgetKeyPrincipal } from "../auth";
import { type Link, links, type NewLink } from "../db/schema";
import { randomBase64Url, sha256Hex } from "../platform/crypto";
import { ApiError, notFound } from "../platform/errors";
import { widgetScriptTag } from "../platform/html";
import { isoTime, isoTimeOrNull, newId } from "../platform/ids";
import type { JsonValue } from "../platform/json";
import { canonicalJson } from "../platform/json";
import { type KeyConfig, keyring, openSecret, sealSecret } from "../platform/secret-box";
import type { CountedLedger } from "./counted-ledger";
import { answerAad, type LedgerResult, type LinkLedgerApi } from "./ledger/contract";
import type { LinkScope } from "./link-rules";
import {
  type CreatedLaunch,
  type CreateLaunch,
  DEFAULT_EXPIRES_IN_SECONDS,
  type Launch,
  type LinkStatus,
} from "./schemas";

/**
 * What looking up, revoking and ending a link need of the ledger, for callers of scope `S`: a
 * widget key (`CountedLedger`, counted-ledger.ts) or a member of the workspace (src/launch/member-links.ts), so both APIs run
 * the same rules.
 */
export type LinkAccess<S extends LinkScope> = {
  /** Marks an active link ended (the call was counted by its look-up). */
  endLink(workspaceId: string, linkId: string, endedAt: number, reason: "server"): Promise<void>;
  lookupLink(scope: S, linkId: string): Promise<LedgerResult<Link>>;
  revokeLink(scope: S, linkId: string): Promise<LedgerResult<null>>;
};

/** The link's status as the API shows it: a pending link past its expiry is `expired`. */
export function effectiveStatus(link: Pick<Link, "status" | "expiresAt">, now: number): LinkStatus {
  return link.status === "pending" && link.expiresAt <= now ? "expired" : link.status;
}

/** `url` and `embedHtml` of a link (docs/api/launch.md). */
export function launchAddresses(
  baseUrl: string,
  flowId: string,
  channelId: string,
  token: string,
): { url: string; embedHtml: string } {
  return {
    url: `${baseUrl}/chat#launch=${token}`,
    embedHtml: widgetScriptTag(baseUrl, flowId, channelId, token),
  };
}

/** The value of a ledger result, or its refusal as the ApiError the client gets. */
export function ledgerValue<T>(result: LedgerResult<T>): T {
  if (result.ok) return result.value;
  const { status, code, message, details, retryAfterSeconds } = result.refusal;
  const headers: Record<string, string> =
    retryAfterSeconds === undefined ? {} : { "retry-after": String(retryAfterSeconds) };
  throw new ApiError(status, code, message, { details, headers });
}

/** An idempotent create as the route hands it over (docs/api/launch.md#idempotent-requests). */
export type IdempotencyRequest = {
  /** The `Idempotency-Key` header. */
  key: string;
  /** The request body as parsed, compared by the SHA-256 of its canonical JSON. */
  body: JsonValue;
  /** The Worker's sealing keys: the stored answer holds the token, so it is sealed. */
  keys: KeyConfig;
};

/**
 * The row of a pending link built from a launch body (docs/api/launch.md#operations): the token
 * is kept only as its SHA-256, the expiry is `now` plus `expiresInSeconds` (default 24 h) in ms.
 * Shared by `createLink` and a workflow's create_link (ledger/workflow-links.ts).
 */
export async function pendingLink(
  origin: Pick<NewLink, "id" | "workspaceId" | "createdByKey">,
  input: Omit<CreateLaunch, "parameters"> & { parameters?: NewLink["parameters"] },
  token: string,
  now: number,
): Promise<NewLink> {
  return {
    ...origin,
    flowId: input.flowId,
    channelId: input.channelId,
    tokenHash: await sha256Hex(token),
    status: "pending",
    parameters: input.parameters ?? {},
    participantName: input.participant?.name ?? null,
    participantExternalId: input.participant?.externalId ?? null,
    globalTask: input.globalTask ?? null,
    metadata: input.metadata ?? {},
    expiresAt: now + (input.expiresInSeconds ?? DEFAULT_EXPIRES_IN_SECONDS) * 1000,
    createdAt: now,
  };
}

/**
 * Creates a pending link. After the request's shape, the limiter checks key scope (403
 * forbidden_flow), agent and widget channel (404 widget_not_found), parameters (400
 * invalid_parameters) and the pending cap (409 too_many_pending_links), in that order. With an
 * idempotency key, a repeat of the same request within 24 h gets the first answer again, token
 * included (422 idempotency_key_reused for another body, 409 idempotency_key_in_use meanwhile).
 * @returns the create response, and whether it is a replay; the token exists only in it and, for an
 *   idempotent create, sealed in the ledger's record of the key (its SHA-256 is stored in D1).
 */
export async function createLink(
  ledger: CountedLedger,
  key: WidgetKeyPrincipal,
  input: Omit<CreateLaunch, "parameters"> & { parameters?: Record<string, JsonValue> },
  baseUrl: string,
  idempotency?: IdempotencyRequest,
  now = Date.now(),
): Promise<{ answer: CreatedLaunch; replayed: boolean }> {
  const token = randomBase64Url(32);
  const link = await pendingLink(
    { id: newId("lnk"), workspaceId: key.workspaceId, createdByKey: key.keyId },
    input,
    token,
    now,
  );
  const answer: CreatedLaunch = {
    id: link.id,
    status: "pending",
    expiresAt: isoTime(link.expiresAt),
    token,
    ...launchAddresses(baseUrl, link.flowId, link.channelId, token),
  };
  if (!idempotency) {
    ledgerValue(await ledger.createLink(key, link));
    return { answer, replayed: false };
  }
  const box = await keyring(idempotency.keys);
  const aad = answerAad(key.workspaceId, key.keyId, idempotency.key);
  const outcome = ledgerValue(
    await ledger.createLink(key, link, {
      key: idempotency.key,
      bodyHash: await sha256Hex(canonicalJson(idempotency.body)),
      sealedAnswer: await sealSecret(box, JSON.stringify(answer), aad),
    }),
  );
  if (!outcome.replayed) return { answer, replayed: false };
  const first = JSON.parse(await openSecret(box, outcome.sealedAnswer, aad)) as CreatedLaunch;
  return { answer: first, replayed: true };
}

/**
 * The look-up view of a link (docs/api/launch.md#operations): never the token, never the parameters;
 * with its metadata, which the person and the agent never see.
 */
export function toLaunch(link: Link, now: number): Launch {
  return {
    id: link.id,
    status: effectiveStatus(link, now),
    expiresAt: isoTime(link.expiresAt),
    flowId: link.flowId,
    channelId: link.channelId,
    createdAt: isoTime(link.createdAt),
    participant: { name: link.participantName, externalId: link.participantExternalId },
    metadata: link.metadata,
    conversation:
      link.sessionId && link.startedAt !== null
        ? {
            sessionId: link.sessionId,
            status: link.endedAt === null ? "in-progress" : "ended",
            startedAt: isoTime(link.startedAt),
            endedAt: isoTimeOrNull(link.endedAt),
            // Once ready; absent before and for agents without analysis (docs/api/launch.md#analysis).
            ...(link.analysis ? { analysis: link.analysis } : {}),
          }
        : null,
  };
}

/** The conversation as events show it: without the analysis, which only `conversation.analyzed` carries. */
export function eventConversation(conversation: Launch["conversation"]) {
  if (!conversation) return null;
  const { analysis: _, ...shown } = conversation;
  return shown;
}

/** Looks up a link in the caller's scope (404 not_found, 403 forbidden_flow). */
export async function getLink<S extends LinkScope>(
  ledger: LinkAccess<S>,
  scope: S,
  id: string,
  now = Date.now(),
): Promise<Launch> {
  return toLaunch(ledgerValue(await ledger.lookupLink(scope, id)), now);
}

/** Revokes a link from any state (docs/api/launch.md#operations); repeating it changes nothing; a pending slot is freed. */
export async function revokeLink<S extends LinkScope>(
  ledger: LinkAccess<S>,
  scope: S,
  id: string,
): Promise<void> {
  ledgerValue(await ledger.revokeLink(scope, id));
}

export type OpenedLink = { link: Link; opened: boolean };

/**
 * Opens a link by its token (docs/api/conversations.md): a pending, unexpired link becomes active with a new
 * conversation session and frees its pending slot; an active or ended link is returned as it is so
 * the conversation resumes, until its expiry. Refusals: 404 not_found (unknown token, or a link of
 * another channel than `channelId`, checked first so that it opens nothing), 403
 * link_unavailable with `{reason: "expired" | "revoked"}` in details.
 * @param ledgerFor the link ledger of a workspace id
 * @param channelId the widget channel whose embedded chat opens it (docs/security.md#chat-embedding)
 */
export async function openLinkByToken(
  db: DrizzleD1Database,
  ledgerFor: (workspaceId: string) => Pick<LinkLedgerApi, "activateLink">,
  token: string,
  now = Date.now(),
  channelId?: string,
): Promise<OpenedLink> {
  const tokenHash = await sha256Hex(token);
  const find = () => db.select().from(links).where(eq(links.tokenHash, tokenHash)).get();
  const refuse = (reason: "expired" | "revoked") =>
    new ApiError(403, "link_unavailable", `This link can no longer be opened: it is ${reason}.`, {
      details: [{ reason }],
    });
  const link = await find();
  if (!link) throw notFound("No link has this token.");
  if (channelId !== undefined && link.channelId !== channelId) {
    throw notFound("No link of this widget channel has this token.");
  }
  if (link.status === "revoked") throw refuse("revoked");
  // The link stops opening, and resuming, at its expiry (docs/api/conversations.md#lifecycle).
  if (link.expiresAt <= now) throw refuse("expired");
  if (link.status !== "pending") return { link, opened: false };
  const opened = await ledgerFor(link.workspaceId).activateLink(
    link.workspaceId,
    link.id,
    newId("ses"),
    now,
  );
  const current = await find();
  if (!current) throw notFound("No link has this token.");
  if (current.status === "revoked") throw refuse("revoked");
  if (current.status === "pending" || current.status === "expired") throw refuse("expired");
  return { link: current, opened };
}

/**
 * Ends the link's conversation from the customer's side (their server, or an Owner or Admin in the
 * dashboard, docs/api/manage.md#links) without revoking the link
 * (docs/api/launch.md#ending-a-conversation): the person sees it ended and read-only until the
 * link expires, the link becomes `ended`, and `conversation.ended` carries `reason: "server"`.
 * An ended or revoked link's conversation is over already: nothing changes.
 * @param endConversation tells the link's conversation object to end, with the reason
 * @throws ApiError 404 not_found, 403 forbidden_flow, 409 link_not_open for a link never opened
 */
export async function endLinkConversation<S extends LinkScope>(
  ledger: LinkAccess<S>,
  scope: S,
  linkId: string,
  endConversation: (sessionId: string, now: number) => Promise<void>,
  now = Date.now(),
): Promise<void> {
  const link = ledgerValue(await ledger.lookupLink(scope, linkId));
  const status = effectiveStatus(link, now);
  if (status === "pending" || status === "expired" || !link.sessionId) {
    if (status === "revoked") return;
    throw new ApiError(409, "link_not_open", "Nobody has opened this link; revoke it instead.");
  }
  if (status !== "active") return;
  await endConversation(link.sessionId, now);
  await ledger.endLink(scope.workspaceId, link.id, now, "server");
}
