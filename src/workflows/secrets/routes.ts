/**
 * Workspace secrets: `PUT/DELETE /v1/manage/secrets/{name}`, `GET /v1/manage/secrets` (docs/security.md and
 * 2). Values go in and never come out; the list shows names and times only.
 */

import { z } from "@hono/zod-openapi";
import { audited } from "../../audit";
import type { MemberEnv } from "../../auth";
import { requireWriter, writerWithJson } from "../../auth";
import { database } from "../../db/database";
import { createRouter } from "../../platform/app";
import type { AppBindings } from "../../platform/env";
import { log } from "../../platform/log";
import { jsonRequest, noContent, operations, pathParam } from "../../platform/openapi";
import { pageRoute } from "../../platform/paging";
import { keyring } from "../../platform/secret-box";
import { notifySecretsChanged } from "../runner/client";
import { deleteSecret, listSecretNames, putSecret } from "./secrets";

const op = operations("Secrets", "memberToken");

/**
 * The write is already stored, so a runner that cannot be told must not turn it into a 500 (a
 * retried DELETE would then get 404); runners re-read secrets on their own shortly after.
 */
async function notifyRunners(env: AppBindings, workspaceId: string): Promise<void> {
  try {
    await notifySecretsChanged(env, workspaceId);
  } catch (error) {
    log("warn", "secrets_notify_failed", { workspaceId, error });
  }
}

/**
 * Workspace secrets: a router built by the full app on first use, never at start-up
 * (src/routes.ts).
 */
export function secretsRouter() {
  /** `{name}` path parameter: upper snake case like an environment variable, up to 64 characters. */
  const SecretNameParamSchema = z.object({
    name: pathParam(
      "name",
      z
        .string()
        .regex(/^[A-Z][A-Z0-9_]{0,63}$/, "Upper snake case (A-Z, 0-9, _), starting with a letter."),
    ).openapi({ example: "STRIPE_API_KEY" }),
  });

  /** Body of `PUT /v1/manage/secrets/{name}`. */
  const PutSecretSchema = z
    .strictObject({ value: z.string().min(1).max(16_384) })
    .openapi("PutSecret");

  /** A listed secret: never its value. */
  const SecretSchema = z
    .object({ name: z.string(), createdAt: z.string(), updatedAt: z.string() })
    .openapi("Secret");

  const router = createRouter<MemberEnv>();

  router.openapi(
    audited(
      "secret.set",
      { target: ["secret", "param:name"] },
      {
        ...op(
          "put",
          "/v1/manage/secrets/{name}",
          "putSecret",
          "Create or replace a secret (owners and admins)",
        ),
        middleware: writerWithJson(65_536),
        request: { params: SecretNameParamSchema, body: jsonRequest(PutSecretSchema) },
        responses: noContent("Stored"),
      },
    ),
    async (c) => {
      const { workspaceId } = c.get("member");
      await putSecret(
        database(c.env),
        await keyring(c.env),
        workspaceId,
        c.req.valid("param").name,
        c.req.valid("json").value,
      );
      await notifyRunners(c.env, workspaceId);
      return c.body(null, 204);
    },
  );

  router.openapi(
    pageRoute(
      op("get", "/v1/manage/secrets", "listSecrets", "List secret names (never the values)"),
      "SecretList",
      SecretSchema,
      "Secrets, sorted by name",
    ),
    async (c) =>
      c.json(
        await listSecretNames(database(c.env), c.get("member").workspaceId, c.req.valid("query")),
        200,
      ),
  );

  router.openapi(
    audited(
      "secret.deleted",
      { target: ["secret", "param:name"] },
      {
        ...op(
          "delete",
          "/v1/manage/secrets/{name}",
          "deleteSecret",
          "Delete a secret (owners and admins)",
        ),
        middleware: [requireWriter],
        request: { params: SecretNameParamSchema },
        responses: noContent("Deleted", "not_found"),
      },
    ),
    async (c) => {
      const { workspaceId } = c.get("member");
      await deleteSecret(database(c.env), workspaceId, c.req.valid("param").name);
      await notifyRunners(c.env, workspaceId);
      return c.body(null, 204);
    },
  );

  return router;
}
