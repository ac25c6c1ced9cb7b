/**
 * The webhook receiver's Worker half (docs/api/webhooks.md#urls): finds the workflow behind the URL,
 * reads the request into the webhook node's outputs and hands it to one of the workflow's runners
 * (docs/scaling.md#runner-shards), which answers 404, 405, 429, then 413, 415 or 422, then runs.
 */
import { database } from "../../db/database";
import { refusedContentEncoding } from "../../platform/body-encoding";
import type { AppBindings } from "../../platform/env";
import { newExecutionId } from "../../platform/ids";
import { namesSessionCookie } from "../../platform/session-cookie-name";
import { workflowIdBySlugs } from "../definitions/lookups";
import { workflowRunner } from "../runner/client";
import type { CaptureOutcome, ShardAnswer, WebhookCall, WebhookOutcome } from "../runner/contract";
import { idOnShard, pickShard } from "../runner/shards";
import {
  MAX_WEBHOOK_BODY_BYTES,
  parseWebhookBody,
  readBodyBytes,
  webhookHeaders,
  webhookQueryParams,
} from "./request";

/** A Cookie header without the dashboard's session cookie (docs/security.md#webhook-replies). */
function withoutSessionCookie(cookie: string): string {
  return cookie
    .split(";")
    .map((pair) => pair.trim())
    .filter((pair) => pair && !namesSessionCookie(pair.split("=", 1)[0] ?? ""))
    .join("; ");
}

/** The path parts of `/webhooks/<workspace>/<workflow>/<node key>`, and the HTTP request's id. */
export type WebhookTarget = {
  workspace: string;
  workflow: string;
  node: string;
  requestId: string;
};

const SLUGS_CACHE_SIZE = 10_000;
/** A workflow's id and how many runner objects take its calls (docs/scaling.md#runner-shards). */
type Route = { id: string; shards: number };
/** Routes by `<workspace slug>/<workflow slug>`, per isolate: a hint the runner checks and corrects. */
const routesBySlugs = new Map<string, Route>();

function remember(key: string, route: Route): void {
  if (!routesBySlugs.has(key) && routesBySlugs.size >= SLUGS_CACHE_SIZE)
    routesBySlugs.delete(routesBySlugs.keys().next().value as string);
  routesBySlugs.set(key, route);
}

async function lookUp(env: AppBindings, path: WebhookTarget): Promise<Route | null> {
  const route = await workflowIdBySlugs(database(env), path.workspace, path.workflow);
  const key = `${path.workspace}/${path.workflow}`;
  if (route === null) routesBySlugs.delete(key);
  else remember(key, route);
  return route;
}

/**
 * Reads the request into the webhook node's outputs, or its refusal: 413 over 1 MiB, 422 broken
 * off, 415 any Content-Encoding but identity, 422 unparsable (docs/api/webhooks.md#responses).
 */
async function readInput(
  request: Request,
): Promise<Pick<WebhookCall, "input" | "headers" | "body" | "size">> {
  const headers = webhookHeaders(request.headers);
  // A browser sent here brings its dashboard session: never hand it to a workflow.
  const cookie = headers.cookie === undefined ? undefined : withoutSessionCookie(headers.cookie);
  if (cookie) headers.cookie = cookie;
  else delete headers.cookie;
  const read = await readBodyBytes(request, MAX_WEBHOOK_BODY_BYTES);
  if (!read.ok) {
    const input: WebhookCall["input"] =
      read.reason === "too_large"
        ? {
            ok: false,
            status: 413,
            message: `The body is larger than ${MAX_WEBHOOK_BODY_BYTES} bytes (1 MiB).`,
          }
        : { ok: false, status: 422, message: "The body ended before it was complete." };
    // Unread: the size as declared; one too large and undeclared was over the limit.
    const declared = Number(request.headers.get("content-length") ?? Number.NaN);
    const over = read.reason === "too_large" ? MAX_WEBHOOK_BODY_BYTES + 1 : 0;
    const size = Number.isSafeInteger(declared) && declared >= 0 ? declared : over;
    return { input, headers, body: null, size };
  }
  const whole = { headers, body: read.bytes, size: read.bytes.byteLength };
  const encoding = refusedContentEncoding(request.headers);
  if (encoding !== null) {
    const message = `Content-Encoding ${JSON.stringify(encoding)} is not accepted; send the body uncompressed.`;
    return { input: { ok: false, status: 415, message }, ...whole };
  }
  const parsed = await parseWebhookBody(read.bytes, request.headers.get("content-type"));
  if (!parsed.ok) return { input: { ok: false, status: 422, message: parsed.message }, ...whole };
  const output = {
    body: parsed.body,
    headers,
    // No `?`, no parameters: the URL is parsed only for a query.
    queryParams: request.url.includes("?") ? webhookQueryParams(new URL(request.url)) : {},
    method: request.method,
    ...(parsed.rawBody !== undefined ? { rawBody: parsed.rawBody } : {}),
  };
  return { input: { ok: true, output }, ...whole };
}

/** Sends the call to runner shard `shard` (its execution id names it); re-attaches after a restart. */
async function sendToShard(
  env: AppBindings,
  call: WebhookCall,
  shard: number,
): Promise<WebhookOutcome | ShardAnswer> {
  try {
    return await workflowRunner(env, call.workflowId, shard).receive(call);
  } catch (error) {
    // The runner restarted while holding the caller; a new stub reaches the restarted object.
    const outcome = await workflowRunner(env, call.workflowId, shard).attach(
      call.workflowId,
      call.executionId,
    );
    if (outcome === null) throw error;
    return outcome;
  }
}

/**
 * Runs the call on a random shard, moving on while shards' rate-limit shares are used; refused
 * only by the last (docs/scaling.md#rate-limits), with the soonest Retry-After.
 */
async function deliver(env: AppBindings, call: WebhookCall): Promise<WebhookOutcome | Reshard> {
  const { shards } = call;
  const first = pickShard(shards);
  let soonest = Number.POSITIVE_INFINITY;
  for (let tried = 0; tried < shards; tried++) {
    const shard = (first + tried) % shards;
    const executionId = idOnShard(call.executionId, shard);
    const spill = tried < shards - 1;
    const outcome = await sendToShard(env, { ...call, executionId, spill }, shard);
    if (outcome.kind === "shard_full") {
      soonest = Math.min(soonest, outcome.retryAfterSeconds);
      continue;
    }
    if (outcome.kind !== "rate_limited") return outcome;
    return { ...outcome, retryAfterSeconds: Math.min(soonest, outcome.retryAfterSeconds) };
  }
  throw new Error("The last runner shard asked answered shard_full.");
}

/** Test URLs are armed and captured on shard 0 (docs/webhooks.md#capture). */
async function capture(env: AppBindings, call: WebhookCall): Promise<CaptureOutcome> {
  return await workflowRunner(env, call.workflowId, 0).capture(call);
}

type Reshard = Extract<ShardAnswer, { kind: "reshard" }>;

/** Sends a call to the workflow's runners: to run it, or to capture it (a test URL). */
type Send<T> = (env: AppBindings, call: WebhookCall) => Promise<T | Reshard>;

/** How many times a call follows a runner's `reshard` before it is given up (a 500). */
const MAX_RESHARDS = 2;

/** Sends the call, again with the runners' shard count while they say it changed; remembers it. */
async function sendRouted<T extends { kind: string }>(
  env: AppBindings,
  call: WebhookCall,
  send: Send<T>,
  key: string,
): Promise<T> {
  let shards = call.shards;
  for (let round = 0; round <= MAX_RESHARDS; round++) {
    const outcome = await send(env, { ...call, shards });
    if (outcome.kind !== "reshard") return outcome as T;
    shards = (outcome as Reshard).shards;
    if (routesBySlugs.get(key)?.id === call.workflowId)
      remember(key, { id: call.workflowId, shards });
  }
  throw new Error("The workflow's runners kept answering reshard.");
}

/** Reads the request into a call for the workflow behind the URL and sends it. */
async function handle<T extends { kind: string; stale?: boolean }>(
  env: AppBindings,
  request: Request,
  target: WebhookTarget,
  send: Send<T>,
): Promise<T | { kind: "not_found"; stale: false }> {
  const receivedAt = Date.now();
  const key = `${target.workspace}/${target.workflow}`;
  const hinted = routesBySlugs.get(key);
  const route = hinted ?? (await lookUp(env, target));
  if (route === null) return { kind: "not_found", stale: false };
  const call: WebhookCall = {
    workflowId: route.id,
    workspaceSlug: target.workspace,
    workflowSlug: target.workflow,
    nodeKey: target.node,
    method: request.method,
    executionId: newExecutionId(receivedAt),
    shards: route.shards,
    spill: false,
    requestId: target.requestId,
    receivedAt,
    url: request.url,
    ...(await readInput(request)),
  };
  const outcome = await sendRouted(env, call, send, key);
  // Only a stale hint is looked up again: a stopped workflow or unknown node costs no D1 read.
  if (outcome.kind !== "not_found" || !outcome.stale || hinted === undefined) return outcome;
  const current = await lookUp(env, target);
  return current === null || current.id === route.id
    ? outcome
    : sendRouted(env, { ...call, workflowId: current.id, shards: current.shards }, send, key);
}

/** Receives one webhook request end to end (docs/api/webhooks.md). */
export function receiveWebhook(
  env: AppBindings,
  request: Request,
  target: WebhookTarget,
): Promise<WebhookOutcome> {
  return handle(env, request, target, deliver);
}

/**
 * Receives a test URL call: a sample when its node is armed, and a test execution when armed with
 * `run` (docs/webhooks.md#capture, docs/webhooks.md#test-runs); no rate limit or request log.
 */
export function captureWebhook(
  env: AppBindings,
  request: Request,
  target: WebhookTarget,
): Promise<CaptureOutcome> {
  return handle(env, request, target, capture);
}
