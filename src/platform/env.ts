/**
 * Worker bindings and vars (wrangler.toml, .dev.vars). Secrets: OPERATOR_TOKEN, SECRETS_KEY, LLM_API_KEY.
 */

import type { ConversationContract } from "../conversations/conversation/contract";
import type { LinkLedgerContract } from "../launch/ledger/contract";
import type { MaintenanceJobContract } from "../manage/jobs/contract";
import type { WorkflowRunnerContract } from "../webhooks/runner/contract";

/** The Workers AI binding as the brain uses it (a stand-in in tests). */
export type AiRunner = { run(model: string, input: unknown): Promise<unknown> };

export interface AppBindings {
  DB: D1Database;
  LINK_LEDGER: DurableObjectNamespace<LinkLedgerContract>;
  WORKFLOW_RUNNER: DurableObjectNamespace<WorkflowRunnerContract>;
  CONVERSATION: DurableObjectNamespace<ConversationContract>;
  /** Background jobs, one object each (docs/architecture.md#maintenance-jobs). */
  MAINTENANCE_JOB: DurableObjectNamespace<MaintenanceJobContract>;
  /** Deliveries of lifecycle events to event endpoints (docs/events.md#delivery). */
  EVENT_DELIVERIES: Queue<{ deliveryId: string }>;
  /** Workers AI; when bound, agents reply through it, otherwise through the scripted brain. */
  AI?: AiRunner;
  /**
   * An OpenAI-compatible chat-completions endpoint (`…/v1`), its key and model; when all three are
   * set, agents reply through it, streamed (docs/api/conversations.md#replies).
   */
  LLM_BASE_URL?: string;
  LLM_API_KEY?: string;
  LLM_MODEL?: string;
  /** Static files (chat page script and styles, /widget.js), built from src/client. */
  ASSETS?: Fetcher;
  /** Bearer token of the operator API (docs/api/manage.md). */
  OPERATOR_TOKEN?: string;
  /** base64 of 32 random bytes; the AES-GCM key that seals (docs/security.md). */
  SECRETS_KEY?: string;
  /** Comma-separated older keys that still open what they sealed (docs/security.md#rotating-keys). */
  SECRETS_KEY_PREVIOUS?: string;
  /** Comma-separated older operator tokens still accepted during a rotation. */
  OPERATOR_TOKEN_PREVIOUS?: string;
  /** Accepted launch API calls per widget key in any 60 s window; default 120 (spec 8). */
  RATE_LIMIT_PER_MINUTE?: string;
  /**
   * "true" lets outbound requests (http_request nodes, event deliveries) go to private and local
   * hosts and event endpoints be plain http: local development only (docs/security.md#outbound-requests).
   */
  ALLOW_PRIVATE_OUTBOUND?: string;
  /** Pending, unexpired links per workspace; default 10000 (spec 8). */
  MAX_PENDING_LINKS?: string;
  /** Public origin of the launch API and chat page; the request's origin when unset. */
  BASE_URL?: string;
  /** Public origin of webhook URLs; the request's origin when unset. */
  APP_URL?: string;
}

declare global {
  namespace Cloudflare {
    interface Env extends AppBindings {}
  }
}
