/**
 * What the link ledger does for workflows (docs/workflows.md): a create_link's repeat, and the
 * session of a link not yet opened, which a workflow writes to before the person comes
 * (docs/workflows.md#send-message).
 */
import { and, eq, isNull } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { conversation } from "../../conversations/conversation/client";
import { type Link, links, type NewLink } from "../../db/schema";
import type { AppBindings } from "../../platform/env";
import { ApiError } from "../../platform/errors";
import { isoTime, newId } from "../../platform/ids";
import { issuesToDetails } from "../../platform/validation";
import { findLinkRow, type LinkScope } from "../link-rules";
import {
  effectiveStatus,
  endLinkConversation,
  type LinkAccess,
  launchAddresses,
  pendingLink,
} from "../links";
import { CreateLaunchSchema } from "../schemas";
import type { LedgerResult, LinkSession, WorkflowLink, WorkflowLinkRequest } from "./contract";
import { activateStatements } from "./lifecycle-events";
import type { LedgerParts } from "./revocation";

/**
 * The link a workflow's create_link asks for, built as `createLink` builds one from a launch body
 * (docs/workflows.md#create-link), or 400 invalid_request with every problem of the settings.
 * `createdByKey` is the workflow's id: no widget key made it.
 */
async function workflowLink(
  workspaceId: string,
  { settings, linkId, token, workflowId, now }: WorkflowLinkRequest,
): Promise<LedgerResult<NewLink>> {
  const parsed = CreateLaunchSchema.safeParse(settings);
  if (!parsed.success) {
    const details = issuesToDetails(parsed.error.issues, settings);
    const message = "The link's settings, once resolved, were refused.";
    return { ok: false, refusal: { status: 400, code: "invalid_request", message, details } };
  }
  const input = parsed.data;
  const parameters = (input.parameters ?? {}) as NewLink["parameters"];
  const origin = { id: linkId, workspaceId, createdByKey: workflowId };
  const link = await pendingLink(origin, { ...input, parameters }, token, now);
  return { ok: true, value: link };
}

/**
 * A workflow's create_link (see the ledger's contract): the link built from the settings, made by
 * `create` (the ledger's checks and write) unless its id holds it already, made before by the same
 * execution and node (same workspace and token: a resumed execution).
 * @throws Error for another link under the id (a bug), or without BASE_URL and APP_URL
 */
export async function createLink(
  {
    db,
    env,
    create,
  }: {
    db: DrizzleD1Database;
    env: Pick<AppBindings, "BASE_URL" | "APP_URL">;
    create: (link: NewLink) => Promise<LedgerResult<unknown>>;
  },
  workspaceId: string,
  request: WorkflowLinkRequest,
): Promise<LedgerResult<WorkflowLink>> {
  const built = await workflowLink(workspaceId, request);
  if (!built.ok) return built;
  const link = built.value;
  const existing = await findLinkRow(db, workspaceId, link.id);
  if (existing) {
    const same = existing.workspaceId === workspaceId && existing.tokenHash === link.tokenHash;
    if (!same) throw new Error("A workflow's link id is taken by another link.");
    // Answered as first made: its expiry counted from the first try, not this one.
    return {
      ok: true,
      value: createdView(env, { ...link, expiresAt: existing.expiresAt }, request.token),
    };
  }
  const made = await create(link);
  if (!made.ok) return made;
  return { ok: true, value: createdView(env, link, request.token) };
}

/** create_link's output: the link with its addresses. @throws Error without BASE_URL or APP_URL */
function createdView(
  env: Pick<AppBindings, "BASE_URL" | "APP_URL">,
  link: NewLink,
  token: string,
): WorkflowLink {
  const baseUrl = env.BASE_URL || env.APP_URL;
  if (!baseUrl) throw new Error("BASE_URL is not set: the link would have no address.");
  return {
    id: link.id,
    status: "pending",
    ...launchAddresses(baseUrl, link.flowId, link.channelId, token),
    expiresAt: isoTime(link.expiresAt),
  };
}

/**
 * A workflow's end_conversation, as the API's end (`endLinkConversation`) with the ledger's own
 * access: its refusals (404 not_found, 409 link_not_open) as data.
 */
export async function endLink(
  access: LinkAccess<LinkScope>,
  env: Pick<AppBindings, "CONVERSATION">,
  workspaceId: string,
  linkId: string,
  now: number,
): Promise<LedgerResult<null>> {
  const end = (sessionId: string, at: number) => conversation(env, sessionId).end("server", at);
  try {
    await endLinkConversation(access, { workspaceId, flowIds: null }, linkId, end, now);
    return { ok: true, value: null };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const { status, code, message } = error;
    return {
      ok: false,
      refusal: { status: status as 404 | 409, code: code as "not_found", message },
    };
  }
}

/**
 * The link's session (design of docs/workflows.md#send-message): a pending, unexpired link without
 * one is given one now (it stays pending and unopened); null for a link that never had one and
 * cannot open any more. Run one at a time per link with `activateLink` (`PerLink`).
 */
export async function ensureSession(
  db: DrizzleD1Database,
  link: Link,
  now: number,
): Promise<{ session: LinkSession; changed: boolean }> {
  const status = effectiveStatus(link, now);
  if (status !== "pending" || link.sessionId !== null) {
    return {
      session: { status, sessionId: link.sessionId, expiresAt: link.expiresAt },
      changed: false,
    };
  }
  const sessionId = newId("ses");
  await db
    .update(links)
    .set({ sessionId })
    .where(and(eq(links.id, link.id), eq(links.status, "pending"), isNull(links.sessionId)));
  return { session: { status, sessionId, expiresAt: link.expiresAt }, changed: true };
}

/**
 * `linkSession`'s answer for the link `found` in scope (or its refusal), giving it a session when
 * `ensureSession` says so; `changed` runs after a write, to drop the ledger's cached row.
 */
export async function giveSession(
  db: DrizzleD1Database,
  found: LedgerResult<Link>,
  now: number,
  changed: () => void,
): Promise<LedgerResult<LinkSession>> {
  if (!found.ok) return found;
  const given = await ensureSession(db, found.value, now);
  if (!given.changed) return { ok: true, value: given.session };
  changed();
  // Another writer's session (none is expected: calls run one at a time) would win: read it back.
  const stored = await findLinkRow(db, found.value.workspaceId, found.value.id);
  return { ok: true, value: { ...given.session, sessionId: stored?.sessionId ?? null } };
}

/**
 * Moves a pending, unexpired link to active, freeing its slot; true when this call opened it. A
 * session the link was given before (`giveSession`) is kept rather than `sessionId`, so what a
 * workflow wrote before the opening is in the conversation opened.
 */
export async function activate(
  { db, d1, events, pending, linkCache, write }: LedgerParts,
  workspaceId: string,
  linkId: string,
  sessionId: string,
  startedAt: number,
): Promise<boolean> {
  await pending.load(workspaceId);
  const found = await findLinkRow(db, workspaceId, linkId);
  if (found?.status !== "pending" || found.expiresAt <= startedAt) return false;
  write();
  const session = found.sessionId ?? sessionId;
  const active: Link = { ...found, status: "active", sessionId: session, startedAt };
  const results = await events.write(workspaceId, activateStatements(d1, active));
  const opened = (results[0] as D1Result).meta.changes === 1;
  if (opened) {
    pending.delete(linkId);
    linkCache.set(active);
  } else {
    linkCache.delete(linkId);
  }
  return opened;
}

/** Runs calls about one link one after another (bounded by the calls waiting: one chain per link). */
export class PerLink {
  private readonly chains = new Map<string, Promise<unknown>>();

  run<T>(linkId: string, work: () => Promise<T>): Promise<T> {
    const before = this.chains.get(linkId) ?? Promise.resolve();
    const next = before.then(work, work);
    const settled = next.catch(() => undefined);
    this.chains.set(linkId, settled);
    void settled.then(() => {
      if (this.chains.get(linkId) === settled) this.chains.delete(linkId);
    });
    return next;
  }
}
