/**
 * Links of the Widget Launch API: create, look up, revoke (spec 2.2 to 4.3, contract 3), and opening
 * (pending → active) for the conversation to build on. Never sees a Hono context.
 */
import { and, eq } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { agents, channels, type Link, links, type NewLink } from "../db/schema";
import type { WorkspaceLimiter } from "../durable-objects/workspace-limiter";
import { randomBase64Url, sha256Hex } from "../lib/crypto";
import { ApiError, notFound } from "../lib/errors";
import { widgetScriptTag } from "../lib/html";
import { isoTime, isoTimeOrNull, newId } from "../lib/ids";
import {
  type CreatedLaunch,
  type CreateLaunch,
  DEFAULT_EXPIRES_IN_SECONDS,
  type Launch,
  type LinkStatus,
} from "../schemas/launches";
import type { WidgetKeyPrincipal } from "./auth";
import { parameterProblems } from "./parameters";

type Limiter = Pick<
  DurableObjectStub<WorkspaceLimiter>,
  "createPendingLink" | "revokeLink" | "activateLink"
>;

export type LinkDeps = {
  db: DrizzleD1Database;
  /** The key's workspace limiter (see `workspaceLimiter`). */
  limiter: Limiter;
  /** Origin of the chat page and widget script, e.g. `https://launch.example.com`. */
  baseUrl: string;
  now?: number;
};

function assertFlowAllowed(key: WidgetKeyPrincipal, flowId: string): void {
  if (key.flowIds !== null && !key.flowIds.includes(flowId)) {
    throw new ApiError(403, "forbidden_flow", "This key is limited to other agents.");
  }
}

/** The link's status as the API shows it: a pending link past its expiry is `expired`. */
export function effectiveStatus(link: Pick<Link, "status" | "expiresAt">, now: number): LinkStatus {
  return link.status === "pending" && link.expiresAt <= now ? "expired" : link.status;
}

/** `url` and `embedHtml` of a link (contract 3). */
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

/**
 * Creates a pending link. Checks, in the order of contract 3 after the request's shape: key scope
 * (403 forbidden_flow), agent and widget channel (404 widget_not_found), parameters
 * (400 invalid_parameters), pending cap (409 too_many_pending_links).
 * @returns the create response; the token exists only in it (its SHA-256 is stored).
 */
export async function createLink(
  deps: LinkDeps,
  key: WidgetKeyPrincipal,
  input: CreateLaunch,
): Promise<CreatedLaunch> {
  const now = deps.now ?? Date.now();
  assertFlowAllowed(key, input.flowId);
  const target = await deps.db
    .select({ parameters: agents.parameters })
    .from(channels)
    .innerJoin(agents, eq(agents.id, channels.agentId))
    .where(
      and(
        eq(channels.id, input.channelId),
        eq(channels.agentId, input.flowId),
        eq(channels.workspaceId, key.workspaceId),
        eq(channels.type, "widget"),
      ),
    )
    .get();
  if (!target) {
    throw new ApiError(
      404,
      "widget_not_found",
      "No such agent in this workspace, or it has no widget channel with this id.",
    );
  }
  const parameters = input.parameters ?? {};
  const problems = parameterProblems(target.parameters, parameters);
  if (problems.length > 0) {
    throw new ApiError(400, "invalid_parameters", "Some parameters were refused.", {
      details: problems,
    });
  }

  const token = randomBase64Url(32);
  const link: NewLink = {
    id: newId("lnk"),
    workspaceId: key.workspaceId,
    flowId: input.flowId,
    channelId: input.channelId,
    tokenHash: await sha256Hex(token),
    status: "pending",
    parameters,
    participantName: input.participant?.name ?? null,
    participantExternalId: input.participant?.externalId ?? null,
    globalTask: input.globalTask ?? null,
    expiresAt: now + (input.expiresInSeconds ?? DEFAULT_EXPIRES_IN_SECONDS) * 1000,
    createdAt: now,
    createdByKey: key.keyId,
  };
  const result = await deps.limiter.createPendingLink(link);
  if (!result.created) {
    throw new ApiError(
      409,
      "too_many_pending_links",
      `The workspace already has ${result.pendingLinks} links that nobody has opened.`,
    );
  }
  return {
    id: link.id,
    status: "pending",
    expiresAt: isoTime(link.expiresAt),
    token,
    ...launchAddresses(deps.baseUrl, link.flowId, link.channelId, token),
  };
}

async function findLink(db: DrizzleD1Database, key: WidgetKeyPrincipal, id: string): Promise<Link> {
  const link = await db
    .select()
    .from(links)
    .where(and(eq(links.id, id), eq(links.workspaceId, key.workspaceId)))
    .get();
  if (!link) throw notFound();
  assertFlowAllowed(key, link.flowId);
  return link;
}

/** The look-up view of a link (spec 2.4, contract 3): never the token, never the parameters. */
export function toLaunch(link: Link, now: number): Launch {
  return {
    id: link.id,
    status: effectiveStatus(link, now),
    expiresAt: isoTime(link.expiresAt),
    flowId: link.flowId,
    channelId: link.channelId,
    createdAt: isoTime(link.createdAt),
    participant: { name: link.participantName, externalId: link.participantExternalId },
    conversation:
      link.sessionId && link.startedAt !== null
        ? {
            sessionId: link.sessionId,
            status: link.endedAt === null ? "in-progress" : "ended",
            startedAt: isoTime(link.startedAt),
            endedAt: isoTimeOrNull(link.endedAt),
          }
        : null,
  };
}

/** Looks up a link of the key's workspace (404 not_found, 403 forbidden_flow). */
export async function getLink(
  db: DrizzleD1Database,
  key: WidgetKeyPrincipal,
  id: string,
  now = Date.now(),
): Promise<Launch> {
  return toLaunch(await findLink(db, key, id), now);
}

/**
 * Revokes a link from any state (spec 3); repeating it changes nothing. A pending link is revoked
 * through the workspace limiter so its slot is freed with the same step.
 */
export async function revokeLink(
  deps: LinkDeps,
  key: WidgetKeyPrincipal,
  id: string,
): Promise<void> {
  const link = await findLink(deps.db, key, id);
  if (link.status === "revoked") return;
  if (link.status === "pending") {
    await deps.limiter.revokeLink(key.workspaceId, link.id);
    return;
  }
  await deps.db
    .update(links)
    .set({ status: "revoked", revokedAt: deps.now ?? Date.now() })
    .where(and(eq(links.id, link.id), eq(links.workspaceId, key.workspaceId)));
}

export type OpenedLink = { link: Link; opened: boolean };

/**
 * Opens a link by its token (contract 4): a pending, unexpired link becomes active with a new
 * conversation session and frees its pending slot; an active or ended link is returned as it is so
 * the conversation resumes. Refusals: 404 not_found (unknown token), 403 link_unavailable with
 * `{reason: "expired" | "revoked"}` in details.
 * @param limiterFor the workspace limiter of a workspace id
 */
export async function openLinkByToken(
  db: DrizzleD1Database,
  limiterFor: (workspaceId: string) => Pick<Limiter, "activateLink">,
  token: string,
  now = Date.now(),
): Promise<OpenedLink> {
  const find = async () =>
    db
      .select()
      .from(links)
      .where(eq(links.tokenHash, await sha256Hex(token)))
      .get();
  const link = await find();
  if (!link) throw notFound("No link has this token.");
  const refuse = (reason: "expired" | "revoked") =>
    new ApiError(403, "link_unavailable", `This link can no longer be opened: it is ${reason}.`, {
      details: [{ reason }],
    });
  if (link.status === "revoked") throw refuse("revoked");
  // The link stops opening, and resuming, at its expiry (spec 1.4, contract 4).
  if (link.expiresAt <= now) throw refuse("expired");
  if (link.status !== "pending") return { link, opened: false };
  const opened = await limiterFor(link.workspaceId).activateLink(
    link.workspaceId,
    link.id,
    newId("ses"),
    now,
  );
  const current = await find();
  if (!current) throw notFound("No link has this token.");
  if (current.status === "revoked") throw refuse("revoked");
  if (current.status === "pending") throw refuse("expired");
  return { link: current, opened };
}
