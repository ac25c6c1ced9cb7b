/**
 * The dashboard's widget preview (docs/api/manage.md#widget-preview): a member's own link on one
 * of an agent's widget channels, so the dashboard can show the real widget, working, on a
 * stand-in page. It is a link like any other (the launch rules, the pending cap, lifecycle
 * events); its person is the member and its external id `dashboard-preview:<memberId>`. Its
 * token is derived from its id under `SECRETS_KEY`, so the preview can be shown again without
 * the token being stored (only its hash is, as for every link). Never sees a Hono context.
 */
import { and, desc, eq, gt, inArray } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { MemberPrincipal } from "../../auth";
import { channels, type Link, links, members, type NewLink } from "../../db/schema";
import { effectiveStatus, findLinkRow, launchAddresses, ledgerValue } from "../../launch";
import type { LinkLedgerApi } from "../../launch/ledger/contract";
import { bytesToBase64Url, constantTimeEqual, sha256Hex } from "../../platform/crypto";
import { ApiError, notFound } from "../../platform/errors";
import { isoTime, newId } from "../../platform/ids";
import { canonicalJson, type JsonValue } from "../../platform/json";
import { derivedHmacKey } from "../../platform/secret-box";
import type { PreviewLink, PreviewLinkRequest } from "./schemas";

/** How long a preview link can be opened: a day, like a working session. */
export const PREVIEW_EXPIRES_IN_SECONDS = 86_400;
/** A live preview link is given again while at least this long (ms) remains before its expiry. */
const REUSE_MARGIN_MS = 3_600_000;
const TOKEN_PURPOSE = "agent-edge preview link token v1";
const encoder = new TextEncoder();

/** The external id of a member's preview links, recognisable in Links and in events. */
export const previewExternalId = (memberId: string): string => `dashboard-preview:${memberId}`;

/** The path of a preview link's stand-in page, served behind the session. */
export const previewPath = (linkId: string): string => `/app/preview/${linkId}`;

/**
 * The token of preview link `linkId`: base64url (43 characters) of HMAC-SHA-256 over
 * `<workspaceId>/<linkId>` under a key derived from `SECRETS_KEY`, as long as a random link token.
 * @throws Error when `SECRETS_KEY` is missing or malformed (a 500)
 */
export async function previewToken(
  secretsKey: string | undefined,
  workspaceId: string,
  linkId: string,
): Promise<string> {
  const key = await derivedHmacKey(secretsKey, TOKEN_PURPOSE);
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(`${workspaceId}/${linkId}`));
  return bytesToBase64Url(new Uint8Array(mac));
}

/** What a preview needs of its surroundings. */
export type PreviewContext = {
  db: DrizzleD1Database;
  ledger: Pick<LinkLedgerApi, "createMemberLink" | "revokeWorkspaceLink">;
  secretsKey: string | undefined;
  /** Origin of the chat page and widget script (`BASE_URL`). */
  baseUrl: string;
  /** Origin of the dashboard (`APP_URL`). */
  appUrl: string;
};

/** The member's preview links on the channel that can still be opened, newest first. */
function livePreviews(
  db: DrizzleD1Database,
  member: MemberPrincipal,
  agentId: string,
  channelId: string,
  now: number,
): Promise<Link[]> {
  return db
    .select()
    .from(links)
    .where(
      and(
        eq(links.workspaceId, member.workspaceId),
        eq(links.participantExternalId, previewExternalId(member.memberId)),
        // A widget key's link may carry the same external id; only the member's own are previews.
        eq(links.createdByKey, member.memberId),
        eq(links.flowId, agentId),
        eq(links.channelId, channelId),
        inArray(links.status, ["pending", "active"]),
        gt(links.expiresAt, now),
      ),
    )
    .orderBy(desc(links.createdAt), desc(links.id));
}

const sameValues = (link: Link, input: PreviewInput): boolean =>
  canonicalJson(link.parameters) === canonicalJson(input.parameters ?? {}) &&
  link.globalTask === (input.globalTask ?? null);

/** A preview request with `parameters` as JSON values (the route reads them from the raw body). */
export type PreviewInput = Omit<PreviewLinkRequest, "parameters"> & {
  parameters?: Record<string, JsonValue>;
};

/**
 * Gives the member a preview link on the agent's widget channel: the newest live one when its
 * parameters and global task are the ones asked for, `restart` is not set, at least an hour
 * remains and its derived token still opens it; otherwise a new pending link (expiring in a day), after which the member's older live
 * previews on the channel are revoked, so each member holds at most one per channel.
 * @param input `parameters` as sent (prototype keys kept, so they are refused as unknown)
 * @throws ApiError 404 not_found (no such agent or widget channel in the workspace), 400
 *   invalid_parameters, 409 too_many_pending_links, 429 rate_limited (the member's own limit of
 *   the launch API's rate, with Retry-After)
 */
export async function openPreviewLink(
  context: PreviewContext,
  member: MemberPrincipal,
  agentId: string,
  channelId: string,
  input: PreviewInput,
  now = Date.now(),
): Promise<PreviewLink> {
  const { db, ledger } = context;
  const [channel, person] = await Promise.all([
    db
      .select({ id: channels.id })
      .from(channels)
      .where(
        and(
          eq(channels.id, channelId),
          eq(channels.agentId, agentId),
          eq(channels.workspaceId, member.workspaceId),
          eq(channels.type, "widget"),
        ),
      )
      .get(),
    db
      .select({ name: members.name })
      .from(members)
      .where(and(eq(members.id, member.memberId), eq(members.workspaceId, member.workspaceId)))
      .get(),
  ]);
  if (!channel || !person) throw notFound("No such agent, or it has no such widget channel.");
  const live = await livePreviews(db, member, agentId, channelId, now);
  const newest = live[0];
  if (
    newest &&
    !input.restart &&
    newest.expiresAt - now >= REUSE_MARGIN_MS &&
    sameValues(newest, input) &&
    // After a change of SECRETS_KEY the derived token no longer opens the link: a new one then.
    constantTimeEqual(
      await sha256Hex(await previewToken(context.secretsKey, newest.workspaceId, newest.id)),
      newest.tokenHash,
    )
  ) {
    return answer(context, newest, true, now);
  }
  const id = newId("lnk");
  const link: NewLink = {
    id,
    workspaceId: member.workspaceId,
    flowId: agentId,
    channelId,
    tokenHash: await sha256Hex(await previewToken(context.secretsKey, member.workspaceId, id)),
    status: "pending",
    parameters: input.parameters ?? {},
    participantName: person.name,
    participantExternalId: previewExternalId(member.memberId),
    globalTask: input.globalTask ?? null,
    metadata: {},
    expiresAt: now + PREVIEW_EXPIRES_IN_SECONDS * 1000,
    createdAt: now,
    // Not a widget key: the member, whose previews these are (livePreviews, previewPageLink).
    createdByKey: member.memberId,
  };
  const guarded = await ledger.createMemberLink(member, link);
  if (!("result" in guarded)) {
    const { admission } = guarded;
    if (admission.reason === "key_revoked") throw new Error("A member's call has no key.");
    const { retryAfterSeconds, limit } = admission.rateLimit;
    throw new ApiError(
      429,
      "rate_limited",
      `More than ${limit} new previews per minute; retry in ${retryAfterSeconds} s.`,
      { headers: { "Retry-After": String(retryAfterSeconds) } },
    );
  }
  ledgerValue(guarded.result);
  // Revoked once the new one exists, so a refused create leaves the working preview alone.
  for (const old of live) ledgerValue(await ledger.revokeWorkspaceLink(member.workspaceId, old.id));
  return answer(context, link, false, now);
}

async function answer(
  context: PreviewContext,
  link: NewLink,
  reused: boolean,
  now: number,
): Promise<PreviewLink> {
  const token = await previewToken(context.secretsKey, link.workspaceId, link.id);
  return {
    id: link.id,
    status: effectiveStatus(link, now),
    expiresAt: isoTime(link.expiresAt),
    token,
    ...launchAddresses(context.baseUrl, link.flowId, link.channelId, token),
    participant: { name: link.participantName ?? "", externalId: link.participantExternalId ?? "" },
    previewUrl: `${context.appUrl}${previewPath(link.id)}`,
    reused,
  };
}

/**
 * The preview link `linkId` of the signed-in member, with its token, for its stand-in page.
 * @throws ApiError 404 not_found for any other link (another member's, a widget key's, unknown)
 */
export async function previewPageLink(
  db: DrizzleD1Database,
  secretsKey: string | undefined,
  member: Pick<MemberPrincipal, "workspaceId" | "memberId">,
  linkId: string,
): Promise<{ link: Link; token: string }> {
  const link = await findLinkRow(db, member.workspaceId, linkId);
  if (
    !link ||
    link.createdByKey !== member.memberId ||
    link.participantExternalId !== previewExternalId(member.memberId)
  ) {
    throw notFound("No such preview of yours.");
  }
  return { link, token: await previewToken(secretsKey, member.workspaceId, linkId) };
}
