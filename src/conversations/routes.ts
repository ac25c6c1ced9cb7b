/**
 * What a person meets after the customer's server created a link (docs/api/conversations.md): the hosted chat page
 * `GET /chat`, the widget's embedded chat `GET /chat/embed/{channelId}`, the browser API
 * (`POST /v1/chat/sessions`, authenticated by the link's token only, and the widget's question
 * `GET /v1/chat/channels/{channelId}/embedding`; CORS open) and the conversation's WebSocket. The
 * page's script and styles (under hashed names) and `/widget.js` are static assets built from
 * `src/client` (docs/chat.md#assets-and-caching).
 */

import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { cors } from "hono/cors";
import { etag } from "hono/etag";
import { database } from "../db/database";
import { type AppEnv, createRouter } from "../platform/app";
import { sha256Hex } from "../platform/crypto";
import { ApiError, notFound } from "../platform/errors";
import { jsonBody } from "../platform/json-body";
import { answers, errorResponses, jsonRequest } from "../platform/openapi";
import { appUrl, baseUrl } from "../platform/origins";
import { loadChatAssets } from "./assets";
import { channelOrigins } from "./channel-origins";
import { conversation } from "./conversation/client";
import { chatPagePolicy, embedAncestors, mayEmbed } from "./embedding";
import { openChatSession } from "./open";
import { chatPageHtml } from "./page";
import { rateConversation } from "./rating";
import {
  ChannelIdParamSchema,
  ChatSessionSchema,
  EmbeddingQuerySchema,
  EmbeddingSchema,
  MAX_CHAT_BODY_BYTES,
  MAX_RATING_BODY_BYTES,
  OpenSessionSchema,
  RateConversationSchema,
  RatingSchema,
  SessionIdParamSchema,
} from "./schemas";

const openSessionRoute = createRoute({
  method: "post",
  path: "/v1/chat/sessions",
  operationId: "openChatSession",
  tags: ["Chat"],
  security: [],
  summary: "Open or resume the conversation of a link (browser API, token in the body)",
  middleware: jsonBody(MAX_CHAT_BODY_BYTES),
  request: { body: jsonRequest(OpenSessionSchema) },
  responses: answers(
    200,
    ChatSessionSchema,
    "The conversation, its history and (unless ended) its socket address",
    "link_unavailable",
    "not_found",
    "rate_limited",
  ),
});

export const chatRouter = createRouter();

/** The dashboard's origin (`APP_URL`'s), whose widget preview may show any channel's chat. */
const dashboardOrigin = (c: Context<AppEnv>): string => new URL(appUrl(c.env, c.req.url)).origin;

// Any page may call the chat API (the widget's question too); no cookies are involved, so the
// token alone authorizes. Where a browser shows the chat is the pages' policy, below.
chatRouter.use(
  "/v1/chat/*",
  cors({
    origin: "*",
    allowMethods: ["POST", "OPTIONS"],
    allowHeaders: ["content-type"],
    maxAge: 600,
  }),
);

chatRouter.openapi(openSessionRoute, async (c) => {
  const { token, channelId } = c.req.valid("json");
  const session = await openChatSession(c.env, token, baseUrl(c.env, c.req.url), channelId);
  c.header("cache-control", "no-store");
  return c.json(session, 200);
});

const rateRoute = createRoute({
  method: "post",
  path: "/v1/chat/rating",
  operationId: "rateConversation",
  tags: ["Chat"],
  security: [],
  summary: "Rate the link's ended conversation, once (browser API, token in the body)",
  middleware: jsonBody(MAX_RATING_BODY_BYTES),
  request: { body: jsonRequest(RateConversationSchema) },
  responses: answers(
    201,
    RatingSchema,
    "The rating as kept; `conversation.rated` follows",
    "link_unavailable",
    "not_found",
    "rating_disabled",
    "conversation_not_ended",
    "already_rated",
    "rate_limited",
  ),
});

chatRouter.openapi(rateRoute, async (c) => {
  const rating = await rateConversation(c.env, c.req.valid("json"));
  c.header("cache-control", "no-store");
  return c.json(rating, 201);
});

// Documented here; the handler below reads the upgrade itself (docs/api/conversations.md#socket-protocol).
chatRouter.openAPIRegistry.registerPath({
  method: "get",
  path: "/v1/chat/sessions/{sessionId}/socket",
  operationId: "connectChatSocket",
  tags: ["Chat"],
  security: [],
  summary:
    "The conversation's WebSocket (the session answer's socketUrl, with its one-time ticket)",
  request: {
    params: SessionIdParamSchema,
    query: z.object({ ticket: z.string().openapi({ description: "One use, 60 s" }) }),
  },
  responses: {
    101: { description: "Switching Protocols: the socket is open" },
    ...errorResponses(
      "not_found",
      "upgrade_required",
      "invalid_ticket",
      "conversation_ended",
      "too_many_connections",
    ),
  },
});

chatRouter.get("/v1/chat/sessions/:sessionId/socket", async (c) => {
  const parsed = SessionIdParamSchema.safeParse({ sessionId: c.req.param("sessionId") });
  if (!parsed.success) throw notFound("No such conversation.");
  if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
    throw new ApiError(426, "upgrade_required", "Connect with a WebSocket upgrade.");
  }
  // The object answers its refusals in the envelope, with this request's id.
  const headers = new Headers(c.req.raw.headers);
  headers.set("x-request-id", c.get("requestId"));
  return conversation(c.env, parsed.data.sessionId).fetch(new Request(c.req.url, { headers }));
});

/**
 * The chat page with its policy (docs/security.md#chat-embedding): the socket's origin named in
 * `connect-src`, `frameAncestors` as given, and for an embedded chat its `channelId` in the
 * document; the token never leaves in a Referer. The HTML names this deployment's bundles, so it
 * is revalidated on every load; its ETag covers the policy too, so a changed list of allowed
 * origins is never kept by a 304.
 */
async function chatPage(
  c: Context<AppEnv>,
  frameAncestors: string | null,
  channelId?: string,
): Promise<Response> {
  const assets = await loadChatAssets(c.env.ASSETS, new URL(c.req.url).origin);
  const html = chatPageHtml(assets, channelId);
  const socketOrigin = baseUrl(c.env, c.req.url).replace(/^http/, "ws");
  const policy = chatPagePolicy(new URL(socketOrigin).origin, frameAncestors);
  return c.body(html, 200, {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": policy,
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
    "cache-control": "no-cache",
    etag: `"${(await sha256Hex(`${policy}\n${html}`)).slice(0, 40)}"`,
  });
}

// The hosted page is a link of its own: no page may frame it (the widget frames /chat/embed/…).
chatRouter.get("/chat", etag(), (c) => chatPage(c, "'none'"));

// The widget's frame: only pages of the channel's allowed origins (and the dashboard) may hold it.
chatRouter.get("/chat/embed/:channelId", etag(), async (c) => {
  const channelId = c.req.param("channelId");
  const allowed = await channelOrigins(database(c.env), channelId);
  if (!allowed) throw notFound("No such widget channel.");
  return chatPage(c, embedAncestors(allowed, dashboardOrigin(c)), channelId);
});

const embeddingRoute = createRoute({
  method: "get",
  path: "/v1/chat/channels/{channelId}/embedding",
  operationId: "getChannelEmbedding",
  tags: ["Chat"],
  security: [],
  summary: "Whether a page of this origin may show the channel's chat (the widget asks)",
  request: { params: ChannelIdParamSchema, query: EmbeddingQuerySchema },
  responses: answers(200, EmbeddingSchema, "The answer; cached for 60 s", "not_found"),
});

chatRouter.openapi(embeddingRoute, async (c) => {
  const allowed = await channelOrigins(database(c.env), c.req.valid("param").channelId);
  if (!allowed) throw notFound("No such widget channel.");
  c.header("cache-control", "public, max-age=60");
  return c.json(
    { allowed: mayEmbed(allowed, c.req.valid("query").origin, dashboardOrigin(c)) },
    200,
  );
});
