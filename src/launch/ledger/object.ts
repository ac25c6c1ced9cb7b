/**
 * LinkLedger: one SQLite-backed Durable Object per workspace, the single writer of its links
 * (docs/architecture.md#link-ledger), called once by every launch API call. It admits calls
 * (`Admissions`: revoked keys, the exact per-key and per-member rate limit), and keeps the pending
 * cap (`PendingLinks`), link writes with their events (`EventWatch`) and the caches.
 */

import { DurableObject } from "cloudflare:workers";
import type { WidgetKeyPrincipal } from "../../auth";
import { database } from "../../db/database";
import type { ConversationAnalysis, Link, NewLink } from "../../db/schema";
import type { EventEndReason } from "../../events/contract";
import type { AppBindings } from "../../platform/env";
import { RateLimitStore } from "../../platform/rate-limit-store";
import { launchLimits } from "../limits";
import {
  findLinkRow,
  type LinkScope,
  linkInScope,
  refuseFlow,
  tooManyPending,
  validateNewLink,
} from "../link-rules";
import { Admissions, guarded } from "./admissions";
import { AgentParameters } from "./agent-parameters";
import type {
  Admission,
  CreateOutcome,
  ErasedLink,
  Guarded,
  IdempotentCreate,
  LedgerResult,
  LedgerUsage,
  LinkLedgerContract,
  LinkMember,
  LinkRating,
  WorkflowLinkRequest,
} from "./contract";
import { EventWatch } from "./event-watch";
import { createIdempotently, IdempotencyKeys } from "./idempotency";
import { KeyRevocations } from "./key-revocations";
import { createStatements } from "./lifecycle-events";
import { LinkCache, toRow, viewAnswer } from "./link-cache";
import { eraseLink } from "./link-erasure";
import * as outcomes from "./link-outcomes";
import { PendingLinks } from "./pending-links";
import { type LedgerParts, revokeFound } from "./revocation";
import * as workflows from "./workflow-links";

/** The workspace's link ledger (docs/architecture.md#link-ledger). */
export class LinkLedger extends DurableObject<AppBindings> implements LinkLedgerContract {
  private readonly db = database(this.env);
  private readonly limits = launchLimits(this.env); // vars are fixed for the object's lifetime
  private readonly keys = new KeyRevocations(this.db);
  private readonly agents = new AgentParameters(this.db);
  private readonly idempotency = new IdempotencyKeys(this.ctx.storage.sql, this.env);
  /** Link writes with their events; concurrent ones share D1 round trips (group commit). */
  private readonly events = new EventWatch(this.ctx, this.env, this.db);
  private readonly pending = new PendingLinks(this.ctx, this.db);
  private readonly rateLimits = new RateLimitStore(this.ctx.storage, (promise) =>
    this.ctx.waitUntil(promise),
  );
  private readonly admissions = new Admissions(this.keys, this.rateLimits, this.limits);
  private readonly linkCache = new LinkCache();
  /** Bumped by every write, so a read-through that raced a write does not cache a stale row. */
  private epoch = 0;
  private readonly perLink = new workflows.PerLink(); // opening, giving a session, revoking: one at a time

  /** Counts one call of the key (docs/api/launch.md#rate-limit) unless the key is revoked or over its limit. */
  async admit(key: Pick<WidgetKeyPrincipal, "keyId">): Promise<Admission> {
    return this.admissions.admit(key);
  }

  /**
   * Admits the call, then creates the pending link (docs/api/launch.md#order-of-checks, after the
   * request's shape: forbidden_flow, widget_not_found, invalid_parameters, too_many_pending_links).
   * With an idempotency key, a repeated call replays the first one's sealed answer instead
   * (docs/api/launch.md#idempotent-requests); refusals are never remembered.
   * @param link the complete row, built by the Worker (token hash, expiry, ids)
   */
  async createLink(
    key: WidgetKeyPrincipal,
    link: NewLink,
    idempotency?: IdempotentCreate,
  ): Promise<Guarded<CreateOutcome>> {
    return guarded(this.admit(key), async () => {
      if (!idempotency) return this.create(key, link);
      return createIdempotently(this.idempotency, key.keyId, idempotency, {
        create: (beforeWrite) => this.create(key, link, beforeWrite),
        written: async (linkId) =>
          (await findLinkRow(this.db, key.workspaceId, linkId)) !== undefined,
        linkId: link.id,
      });
    });
  }

  /** A member's dashboard preview (docs/api/manage.md#widget-preview): see the contract. */
  async createMemberLink(member: LinkMember, link: NewLink): Promise<Guarded<CreateOutcome>> {
    const scope = { workspaceId: member.workspaceId, flowIds: null };
    return guarded(this.admissions.count(member.memberId), () => this.create(scope, link));
  }

  /** The checks and the write of a create; `beforeWrite` runs once every check has passed. */
  private async create(
    key: LinkScope,
    link: NewLink,
    beforeWrite?: () => void,
  ): Promise<LedgerResult<CreateOutcome>> {
    const flowRefusal = refuseFlow(key, link.flowId);
    if (flowRefusal) return { ok: false, refusal: flowRefusal };
    const definitions = await this.agents.get(key.workspaceId, link.flowId, link.channelId);
    const refusal = validateNewLink(definitions, link.parameters);
    if (refusal) return { ok: false, refusal };
    await this.pending.load(key.workspaceId);
    const pendingLinks = this.pending.size(Date.now());
    if (pendingLinks >= this.limits.maxPendingLinks) {
      return { ok: false, refusal: tooManyPending(pendingLinks) };
    }
    this.pending.add(link.id, link.expiresAt);
    beforeWrite?.();
    const row = toRow(link);
    try {
      await this.events.write(key.workspaceId, createStatements(this.env.DB, row));
    } catch (error) {
      this.pending.delete(link.id);
      throw error;
    }
    this.epoch++;
    this.linkCache.set(row);
    return { ok: true, value: { replayed: false } };
  }

  /** A workflow's create_link (see the contract; workflow-links.ts). */
  async createWorkflowLink(workspaceId: string, request: WorkflowLinkRequest) {
    const create = (link: NewLink) => this.create({ workspaceId, flowIds: null }, link);
    return workflows.createLink({ db: this.db, env: this.env, create }, workspaceId, request);
  }

  /** A workflow's end_conversation (see the contract; workflow-links.ts). */
  async endWorkflowLink(workspaceId: string, linkId: string, now: number) {
    const access = {
      lookupLink: (scope: LinkScope, id: string) => this.findInScope(scope, id),
      revokeLink: (scope: LinkScope, id: string) => this.revoke(scope, id),
      endLink: (ws: string, id: string, at: number) => this.endLink(ws, id, at, "server"),
    };
    return workflows.endLink(access, this.env, workspaceId, linkId, now);
  }

  /** The link's session, given to a pending one now (see the contract; workflow-links.ts). */
  async linkSession(workspaceId: string, linkId: string, now: number) {
    return this.perLink.run(linkId, async () => {
      const found = await this.findInScope({ workspaceId, flowIds: null }, linkId);
      return workflows.giveSession(this.db, found, now, () => {
        this.epoch++;
        this.linkCache.delete(linkId);
      });
    });
  }

  /** Admits the call and reads the link (404 not_found, 403 forbidden_flow). */
  async lookupLink(key: WidgetKeyPrincipal, linkId: string): Promise<Guarded<Link>> {
    return guarded(this.admit(key), async () => this.findInScope(key, linkId));
  }

  /** The link's view, admitted (see the contract); awaits nothing when all is in memory. */
  viewLink(key: WidgetKeyPrincipal, linkId: string, now: number) {
    const admission = this.admissions.admitNow(key);
    if (!admission) return this.admit(key).then((counted) => this.view(counted, key, linkId, now));
    return this.view(admission, key, linkId, now);
  }

  private view(admission: Admission, key: WidgetKeyPrincipal, linkId: string, now: number) {
    if (!admission.admitted) return { admission };
    const cached = this.linkCache.get(linkId);
    const found = cached ? linkInScope(key, cached) : this.findInScope(key, linkId);
    return viewAnswer(this.linkCache, admission, found, now);
  }

  /** Admits the call and revokes the link from any state; idempotent; frees a pending slot. */
  async revokeLink(key: WidgetKeyPrincipal, linkId: string): Promise<Guarded<null>> {
    return guarded(this.admit(key), () => this.revoke(key, linkId));
  }

  /** A member's revocation (docs/api/manage.md#links): as `revokeLink`, counted against no key. */
  async revokeWorkspaceLink(workspaceId: string, linkId: string): Promise<LedgerResult<null>> {
    return this.revoke({ workspaceId, flowIds: null }, linkId);
  }

  /** In the link's chain: a session given or an opening runs wholly before or after it. */
  private async revoke(scope: LinkScope, linkId: string): Promise<LedgerResult<null>> {
    return this.perLink.run(linkId, async () => {
      const found = await this.findInScope(scope, linkId);
      if (!found.ok) return found;
      if (found.value.status !== "revoked") await revokeFound(this.parts(), this.env, found.value);
      return { ok: true, value: null };
    });
  }

  /** Moves a pending, unexpired link to active (see the contract; workflow-links.ts). */
  async activateLink(workspaceId: string, linkId: string, sessionId: string, startedAt: number) {
    const parts = this.parts();
    return this.perLink.run(linkId, () =>
      workflows.activate(parts, workspaceId, linkId, sessionId, startedAt),
    );
  }

  /** What the link writes kept in other files need of the ledger (`write` bumps the epoch). */
  private parts(): LedgerParts {
    const { db, events, pending, linkCache } = this;
    return { db, d1: this.env.DB, events, pending, linkCache, write: () => this.epoch++ };
  }

  /** The conversation ended (see the contract; link-outcomes.ts). */
  async endLink(workspaceId: string, linkId: string, endedAt: number, reason: EventEndReason) {
    await outcomes.recordEnd(this.parts(), workspaceId, linkId, endedAt, reason);
  }

  async recordAnalysis(
    workspaceId: string,
    linkId: string,
    analysis: ConversationAnalysis,
    at: number,
  ) {
    return outcomes.recordAnalysis(this.parts(), workspaceId, linkId, analysis, at);
  }

  async rateLink(workspaceId: string, linkId: string, rating: LinkRating): Promise<void> {
    await outcomes.recordRating(this.parts(), workspaceId, linkId, rating);
  }

  async revokeWidgetKey(workspaceId: string, keyId: string): Promise<boolean> {
    return this.keys.revoke(workspaceId, keyId, Date.now());
  }

  async forgetAgent(agentId: string): Promise<void> {
    this.agents.forget(agentId);
  }

  async usage(workspaceId: string): Promise<LedgerUsage> {
    await this.pending.load(workspaceId);
    const pendingLinks = this.pending.size(Date.now());
    return { pendingLinks, maxPendingLinks: this.limits.maxPendingLinks };
  }

  async resealAnswers(workspaceId: string): Promise<number> {
    return this.idempotency.reseal(workspaceId, Date.now());
  }

  async eraseLink(workspaceId: string, linkId: string): Promise<ErasedLink | null> {
    await this.pending.load(workspaceId);
    // Bumped on both sides of the delete, so no read-through around it caches the erased row.
    this.epoch++;
    const erased = await eraseLink(this.env, workspaceId, linkId);
    this.epoch++;
    this.pending.delete(linkId);
    this.linkCache.delete(linkId);
    return erased;
  }

  /** The workspace was deleted, D1 first (see the contract): forgets it, stored and cached. */
  async forgetWorkspace(): Promise<void> {
    this.epoch++;
    for (const cache of [this.keys, this.linkCache, this.agents, this.pending]) cache.clear();
    // Calls counted before now are written before the wipe, not after it.
    await this.rateLimits.flush();
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }

  /** Makes sure the alarm relays deliveries queued outside the ledger (resend, recover, test). */
  async watchDeliveries(workspaceId: string): Promise<void> {
    await this.events.watch(workspaceId);
  }

  /** The ledger's alarm: records `link.expired` and relays overdue deliveries (docs/events.md#delivery). */
  override async alarm(): Promise<void> {
    await this.events.fire(
      (workspaceId) => this.pending.load(workspaceId),
      (now) => this.pending.earliest(now),
      (linkIds) => {
        // After the write: a read-through that overlapped it is not cached (see findInScope).
        this.epoch++;
        for (const id of linkIds) this.linkCache.delete(id);
      },
    );
  }

  private async findInScope(scope: LinkScope, linkId: string): Promise<LedgerResult<Link>> {
    let link = this.linkCache.get(linkId);
    if (!link) {
      const epoch = this.epoch;
      link = await findLinkRow(this.db, scope.workspaceId, linkId);
      if (link && epoch === this.epoch) this.linkCache.set(link);
    }
    return linkInScope(scope, link);
  }
}
