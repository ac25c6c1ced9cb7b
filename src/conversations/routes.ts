/**
 * What a person meets after the customer's server created a link (docs/api/conversations.md): the hosted chat page
 * `GET /chat`, the browser API `POST /v1/chat/sessions` (CORS open, authenticated by the link's
 * token only) and the conversation's WebSocket. The page's script and styles (under hashed names)
 * and `/widget.js` are static assets built from `src/client` (docs/chat.md#assets-and-caching).
 */

import { createRoute, z } from "@hono/zod-openapi";
import { cors } from "hono/cors";
import { etag } from "hono/etag";
import { createRouter } from "../platform/app";
import { ApiError, notFound } from "../platform/errors";
import { jsonBody } from "../platform/json-body";
import { errorResponses } from "../platform/openapi";
import { baseUrl } from "../platform/origins";
import { loadChatAssets } from "./assets";
import { conversation } from "./conversation/client";
import { openChatSession } from "./open";
import { chatPageHtml } from "./page";
import {
  ChatSessionSchema,
  MAX_CHAT_BODY_BYTES,
  OpenSessionSchema,
  SessionIdParamSchema,
} from "./schemas";

/**
 * The page's policy: its own script and styles only; the token never leaves in a Referer. The HTML
 * names this deployment's bundles, so it is revalidated on every load (ETag, 304 when unchanged).
 */
const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; base-uri 'none'; form-action 'none'",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
  "cache-control": "no-cache",
};

const openSessionRoute = createRoute({
  method: "post",
  path: "/v1/chat/sessions",
  tags: ["Chat"],
  security: [],
  summary: "Open or resume the conversation of a link (browser API, token in the body)",
  middleware: jsonBody(MAX_CHAT_BODY_BYTES),
  request: {
    body: { required: true, content: { "application/json": { schema: OpenSessionSchema } } },
  },
  responses: {
    200: {
      description: "The conversation, its history and (unless ended) its socket address",
      content: { "application/json": { schema: ChatSessionSchema } },
    },
    ...errorResponses("link_unavailable", "not_found", "rate_limited"),
  },
});

export const chatRouter = createRouter();

// Any page may embed the chat; no cookies are involved, so the token alone authorizes.
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
  const session = await openChatSession(
    c.env,
    c.req.valid("json").token,
    baseUrl(c.env, c.req.url),
  );
  c.header("cache-control", "no-store");
  return c.json(session, 200);
});

// Documented here; the handler below reads the upgrade itself (docs/api/conversations.md#socket-protocol).
chatRouter.openAPIRegistry.registerPath(
  createRoute({
    method: "get",
    path: "/v1/chat/sessions/{sessionId}/socket",
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
  }),
);

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

chatRouter.get("/chat", etag(), async (c) => {
  const assets = await loadChatAssets(c.env.ASSETS, new URL(c.req.url).origin);
  return c.body(chatPageHtml(assets), 200, PAGE_HEADERS);
});
