/**
 * Worker bindings and vars (wrangler.toml, .dev.vars). Secrets: OPERATOR_TOKEN, SECRETS_KEY.
 */

import type { AiRunner } from "../conversations/brain";
import type { Conversation } from "../conversations/conversation/object";
import type { WorkspaceLimiter } from "../launch/ledger/object";
import type { WorkflowRunner } from "../webhooks/runner/object";

export interface AppBindings {
  DB: D1Database;
  WORKSPACE_LIMITER: DurableObjectNamespace<WorkspaceLimiter>;
  WORKFLOW_RUNNER: DurableObjectNamespace<WorkflowRunner>;
  CONVERSATION: DurableObjectNamespace<Conversation>;
  /** Workers AI; when bound, agents reply through it, otherwise through the scripted brain. */
  AI?: AiRunner;
  /** Static files (chat page script and styles, /widget.js), built from src/client. */
  ASSETS?: Fetcher;
  /** Bearer token of the operator API (contract section 2). */
  OPERATOR_TOKEN?: string;
  /** base64 of 32 random bytes; AES-GCM key for workspace secrets (contract section 1). */
  SECRETS_KEY?: string;
  /** Accepted launch API calls per widget key in any 60 s window; default 120 (spec 8). */
  RATE_LIMIT_PER_MINUTE?: string;
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
    // Types `exports` of "cloudflare:workers" (as `wrangler types` would).
    interface GlobalProps {
      mainModule: typeof import("../index");
      durableNamespaces: "WorkspaceLimiter" | "WorkflowRunner" | "Conversation";
    }
  }
}
