/** The LinkLedger's RPC interface and its shapes (docs/architecture.md#link-ledger). */
import type { WidgetKeyPrincipal } from "../../auth";
import type { ConversationAnalysis, Link, NewLink } from "../../db/schema";
import type { EventEndReason } from "../../events/contract";
import type { ErrorDetail } from "../../platform/errors";
import type { RateLimitDecision } from "../../platform/sliding-window";
import type { PackedView } from "./packed-view";

/** A refusal that crosses the boundary as data; the Worker turns it into an ApiError. */
export type Refusal = {
  status: 400 | 403 | 404 | 409 | 422;
  code:
    | "forbidden_flow"
    | "widget_not_found"
    | "invalid_parameters"
    | "not_found"
    | "too_many_pending_links"
    | "idempotency_key_reused"
    | "idempotency_key_in_use"
    | "invalid_request"
    | "link_not_open";
  message: string;
  details?: ErrorDetail[];
  /** When to try again (whole seconds), sent as `Retry-After`. */
  retryAfterSeconds?: number;
};

/** An idempotent create (docs/api/launch.md#idempotent-requests). */
export type IdempotentCreate = {
  /** The `Idempotency-Key` header: 1 to 255 printable ASCII characters. */
  key: string;
  /** SHA-256 hex of the request body's canonical JSON. */
  bodyHash: string;
  /** The 201 body this create answers, sealed by the Worker with the secrets key. */
  sealedAnswer: string;
};

/** The AAD a stored answer is sealed with: it opens for this widget key and idempotency key only. */
export const answerAad = (workspaceId: string, keyId: string, idempotencyKey: string) =>
  `idempotency/${workspaceId}/${keyId}/${idempotencyKey}`;

/** What erasing one link removed: its conversation's messages, its events and their deliveries. */
export type ErasedLink = {
  conversation: boolean;
  messages: number;
  events: number;
  deliveries: number;
};

/** What a create did: a new link, or the sealed answer of the first call with its idempotency key. */
export type CreateOutcome = { replayed: false } | { replayed: true; sealedAnswer: string };

/** The outcome of counting one call of a widget key (docs/api/launch.md#rate-limit). */
export type Admission =
  | { admitted: true; rateLimit: RateLimitDecision }
  | { admitted: false; reason: "rate_limited"; rateLimit: RateLimitDecision }
  | { admitted: false; reason: "key_revoked" };

/** The result of a call's work: its value, or the refusal it earned. */
export type LedgerResult<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

/** A counted call: refused at admission, or admitted with the result of its work. */
export type Guarded<T> =
  | { admission: Admission & { admitted: false } }
  | { admission: Admission & { admitted: true }; result: LedgerResult<T> };

/** Pending links of the workspace now, against its cap (docs/limits.md). */
export type LedgerUsage = { pendingLinks: number; maxPendingLinks: number };

/** A link's session as `linkSession` answers it: the effective status, the session, the expiry (epoch ms). */
export type LinkSession = {
  status: "pending" | "active" | "ended" | "revoked" | "expired";
  sessionId: string | null;
  expiresAt: number;
};

/**
 * A workflow's create_link (docs/workflows.md#create-link): its settings as resolved (checked as
 * `POST /v1/widget/launches` checks a body), the link id and token the runner derived and sealed.
 */
export type WorkflowLinkRequest = {
  settings: Record<string, unknown>;
  linkId: string;
  token: string;
  workflowId: string;
  now: number;
};

/** A created link as create_link outputs it (the token inside `url` and `embedHtml`). */
export type WorkflowLink = {
  id: string;
  status: "pending";
  url: string;
  embedHtml: string;
  expiresAt: string;
};

/** The member a dashboard preview link is for (docs/api/manage.md#widget-preview). */
export type LinkMember = { workspaceId: string; memberId: string };

/** A rating as the link stores it: score 1 to 5, comment or null, `ratedAt` epoch ms. */
export type LinkRating = { score: number; comment: string | null; ratedAt: number };

/** What the LinkLedger offers over RPC. Times are epoch milliseconds. */
export interface LinkLedgerApi {
  /** Counts one call of the key unless it is revoked or over its rate limit. */
  admit(key: Pick<WidgetKeyPrincipal, "keyId">): Promise<Admission>;
  /** Admits the call, then creates the pending link (scope, agent and channel, parameters, cap). */
  createLink(
    key: WidgetKeyPrincipal,
    link: NewLink,
    idempotency?: IdempotentCreate,
  ): Promise<Guarded<CreateOutcome>>;
  /**
   * Creates a member's dashboard preview link (docs/api/manage.md#widget-preview): `createLink`'s
   * checks over every agent, counted against the member's own rate limit.
   */
  createMemberLink(member: LinkMember, link: NewLink): Promise<Guarded<CreateOutcome>>;
  /**
   * A workflow's create_link (docs/workflows.md#create-link): the launch API's checks (the body's
   * shape, 400 invalid_request), then `createLink`'s over every agent and the pending cap, counted
   * against no key. The link's id is derived from the execution and node, so a resumed execution's
   * repeat (same id and token) is answered again without a second link.
   * @throws Error when neither BASE_URL nor APP_URL is set: the link would have no address
   */
  createWorkflowLink(
    workspaceId: string,
    request: WorkflowLinkRequest,
  ): Promise<LedgerResult<WorkflowLink>>;
  /**
   * A workflow's end_conversation (docs/workflows.md#end-conversation): as
   * `POST /v1/widget/launches/{id}/end` (404 not_found, 409 link_not_open), counted against no key.
   */
  endWorkflowLink(workspaceId: string, linkId: string, now: number): Promise<LedgerResult<null>>;
  /**
   * The link's session (docs/workflows.md#send-message), with its effective status and expiry: a
   * pending, unexpired link without one is given one (`ses_…`; it stays pending, its look-up still
   * shows `conversation: null`) so a workflow can write to it before it opens; 404 not_found for
   * no link of the workspace.
   */
  linkSession(workspaceId: string, linkId: string, now: number): Promise<LedgerResult<LinkSession>>;
  /** Admits the call, then reads the link. */
  lookupLink(key: WidgetKeyPrincipal, linkId: string): Promise<Guarded<Link>>;
  /**
   * `lookupLink` for the launch API's look-up: a link found in scope is answered as its view at
   * `now` (epoch ms), the answer's JSON text (docs/api/launch.md#operations), packed with the
   * window's figures into one string (packed-view.ts), which crosses the boundary far cheaper
   * than the row or `Guarded`; a refusal as `Guarded`.
   */
  viewLink(
    key: WidgetKeyPrincipal,
    linkId: string,
    now: number,
  ): PackedView | Guarded<string> | Promise<PackedView | Guarded<string>>;
  /** Admits the call, then revokes the link from any state (idempotent). */
  revokeLink(key: WidgetKeyPrincipal, linkId: string): Promise<Guarded<null>>;
  /** Revokes a link for an Owner or Admin (docs/api/manage.md#links), counted against no key. */
  revokeWorkspaceLink(workspaceId: string, linkId: string): Promise<LedgerResult<null>>;
  /** Moves a pending, unexpired link to active (keeping a session given before); true when this call opened it. */
  activateLink(
    workspaceId: string,
    linkId: string,
    sessionId: string,
    startedAt: number,
  ): Promise<boolean>;
  /** Records that the link's conversation ended, and why; repeating it changes nothing. */
  endLink(
    workspaceId: string,
    linkId: string,
    endedAt: number,
    reason: EventEndReason,
  ): Promise<void>;
  /**
   * Records an ended conversation's analysis on its link with `conversation.analyzed`
   * (docs/events.md#conversationanalyzed); only the first is kept; none for a link gone.
   * @returns the analysis the link holds afterwards (the first stored), null for a link gone
   */
  recordAnalysis(
    workspaceId: string,
    linkId: string,
    analysis: ConversationAnalysis,
    at: number,
  ): Promise<ConversationAnalysis | null>;
  /**
   * Records the person's rating of the link's ended conversation (docs/api/conversations.md#rating)
   * with `conversation.rated`; the first rating stays, so repeating it changes nothing.
   */
  rateLink(workspaceId: string, linkId: string, rating: LinkRating): Promise<void>;
  /** Makes sure overdue deliveries of the workspace are relayed (docs/events.md#delivery). */
  watchDeliveries(workspaceId: string): Promise<void>;
  /** Revokes a widget key, refused from the next call on; false for an unknown key. */
  revokeWidgetKey(workspaceId: string, keyId: string): Promise<boolean>;
  /** Forgets cached parameter definitions of an agent that changed or was deleted. */
  forgetAgent(agentId: string): Promise<void>;
  /** Pending links now and the cap (`GET /v1/manage/usage`, docs/api/manage.md#usage). */
  usage(workspaceId: string): Promise<LedgerUsage>;
  /** Reseals stored idempotent answers under the current key (docs/security.md#rotating-keys); how many. */
  resealAnswers(workspaceId: string): Promise<number>;
  /**
   * Erases a link (docs/security.md#erasure): revoked in effect, its conversation erased, its row,
   * events and deliveries deleted, no event recorded. @returns what was erased, null for no link
   */
  eraseLink(workspaceId: string, linkId: string): Promise<ErasedLink | null>;
  /**
   * The workspace was deleted, D1 rows first (docs/api/manage.md#deleting-a-workspace): drops all
   * the ledger keeps and caches, so its keys are refused and its links not found from now on.
   */
  forgetWorkspace(): Promise<void>;
}

/** The ledger as its namespace binding knows it. */
export interface LinkLedgerContract extends LinkLedgerApi, Rpc.DurableObjectBranded {}
