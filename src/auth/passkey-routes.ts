/**
 * Passkeys (docs/dashboard.md#passkeys): a signed-in member's `GET|POST /v1/manage/passkeys`,
 * `POST /v1/manage/passkeys/options`, `DELETE /v1/manage/passkeys/{id}`; and signing in with one:
 * `POST /sign-in/passkey/options`, `POST /sign-in/passkey` (sets the session cookie).
 */
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { audited } from "../audit";
import { database } from "../db/database";
import { createRouter } from "../platform/app";
import { ApiError } from "../platform/errors";
import { isoTime, isoTimeOrNull } from "../platform/ids";
import { jsonBody } from "../platform/json-body";
import { answers, IdParamSchema, NoQuerySchema, noContent, operations } from "../platform/openapi";
import { appUrl } from "../platform/origins";
import { pageRoute } from "../platform/paging";
import { type MemberEnv, refuseCrossSite } from "./middleware";
import {
  deletePasskey,
  listPasskeys,
  registerPasskey,
  registrationOptions,
  relyingParty,
  signInOptions,
  signInWithPasskey,
} from "./passkeys";
import { startSession } from "./session-cookie";

const op = operations("Sign-in", "memberToken");

const rp = (c: Context) => relyingParty(appUrl(c.env, c.req.url));
const view = (row: { id: string; name: string; createdAt: number; lastUsedAt: number | null }) => ({
  ...row,
  createdAt: isoTime(row.createdAt),
  lastUsedAt: isoTimeOrNull(row.lastUsedAt),
});

/** The dashboard's cross-site rule, with an Origin required: the sign-in page always sends one. */
function sameOrigin(c: Context): void {
  if (!c.req.header("origin")) {
    throw new ApiError(403, "cross_site_request", "Passkey sign-in comes from this origin only.");
  }
  refuseCrossSite(c.req.raw);
}

/**
 * A member's passkeys: a router built by the full app on first use, never at start-up
 * (src/routes.ts).
 */
export function passkeysRouter() {
  const PasskeySchema = z
    .object({
      id: z.string(),
      name: z.string(),
      createdAt: z.string(),
      lastUsedAt: z.string().nullable(),
    })
    .openapi("Passkey");
  const CeremonySchema = z
    .object({
      challengeId: z.string(),
      options: z.record(z.string(), z.unknown()).openapi({
        description: "WebAuthn options as JSON, for @simplewebauthn/browser",
      }),
    })
    .openapi("PasskeyCeremony");

  const router = createRouter<MemberEnv>();

  router.openapi(
    pageRoute(
      op("get", "/v1/manage/passkeys", "listPasskeys", "List your passkeys"),
      "PasskeyList",
      PasskeySchema,
      "Passkeys, oldest first",
    ),
    async (c) => {
      const page = await listPasskeys(
        database(c.env),
        c.get("member").memberId,
        c.req.valid("query"),
      );
      return c.json({ ...page, data: page.data.map(view) }, 200);
    },
  );

  router.openapi(
    {
      ...op(
        "post",
        "/v1/manage/passkeys/options",
        "createPasskeyOptions",
        "Start registering a passkey: WebAuthn creation options (valid 5 minutes)",
      ),
      request: { query: NoQuerySchema },
      responses: answers(200, CeremonySchema, "Options"),
    },
    async (c) => c.json(await registrationOptions(database(c.env), c.get("member"), rp(c)), 200),
  );

  router.openapi(
    audited(
      "passkey.added",
      { target: ["passkey", "response:id"] },
      {
        ...op(
          "post",
          "/v1/manage/passkeys",
          "createPasskey",
          "Register a passkey with the authenticator's answer to the options",
        ),
        middleware: jsonBody(65_536),
        request: {
          body: {
            required: true,
            content: {
              "application/json": {
                schema: z.strictObject({
                  challengeId: z.string().min(1).max(64),
                  name: z.string().trim().min(1).max(100).default("Passkey"),
                  response: z.record(z.string(), z.unknown()),
                }),
              },
            },
          },
        },
        responses: answers(201, PasskeySchema, "Registered", "passkey_refused"),
      },
    ),
    async (c) => {
      const body = c.req.valid("json");
      const input = { ...body, response: body.response as never };
      const created = await registerPasskey(database(c.env), c.get("member"), input, rp(c));
      return c.json(view(created), 201);
    },
  );

  router.openapi(
    audited(
      "passkey.removed",
      { target: ["passkey", "param:id"] },
      {
        ...op("delete", "/v1/manage/passkeys/{id}", "deletePasskey", "Delete one of your passkeys"),
        request: { params: IdParamSchema, query: NoQuerySchema },
        responses: noContent("Deleted", "not_found"),
      },
    ),
    async (c) => {
      await deletePasskey(database(c.env), c.get("member").memberId, c.req.valid("param").id);
      return c.body(null, 204);
    },
  );

  return router;
}

/** The browser's passkey sign-in: JSON from the sign-in page's script, same origin only. */
export function passkeySignInRouter() {
  const router = createRouter();

  router.post("/sign-in/passkey/options", async (c) => {
    sameOrigin(c);
    return c.json(await signInOptions(database(c.env), rp(c)));
  });

  router.use("/sign-in/passkey", ...jsonBody(65_536));

  router.post("/sign-in/passkey", async (c) => {
    sameOrigin(c);
    const body = ((await c.req.json()) ?? {}) as { challengeId?: unknown; response?: unknown };
    const response = body.response as { id?: unknown } | null | undefined;
    if (
      typeof body !== "object" ||
      typeof body.challengeId !== "string" ||
      typeof response !== "object" ||
      !response ||
      typeof response.id !== "string"
    ) {
      throw new ApiError(400, "passkey_refused", "Send {challengeId, response}.");
    }
    const input = { challengeId: body.challengeId, response: body.response as never };
    const session = await signInWithPasskey(database(c.env), input, rp(c));
    await startSession(c, session, { type: "passkey", id: session.passkeyId });
    return c.json({ location: "/app" });
  });

  return router;
}
