/**
 * The route config of a change that removes one thing of the workspace by its `{id}` (delete an
 * agent, a member, a workflow, an event endpoint; revoke a widget key or a link): owners and admins
 * only, recorded in the audit log (docs/security.md#audit-log), answered 204 with no body.
 */
import type { z } from "@hono/zod-openapi";
import { audited } from "../audit";
import type { AuditAction, TargetType } from "../audit/actions";
import type { ErrorCode } from "../platform/errors";
import { answers, IdParamSchema, jsonRequest, noContent } from "../platform/openapi";
import { requireWriter, writerWithJson } from "./middleware";

/**
 * `head` (an `operations(…)` head: method, path with `{id}`, operationId, summary) as a writer's
 * removal: `audited(action, { target: [target, "param:id"] }, …)` with `requireWriter`, the `{id}`
 * path parameter and `noContent(description, ...codes)` as its answers.
 */
export function removalRoute<H extends { method: string; path: string }>(
  action: AuditAction,
  target: TargetType,
  head: H,
  description: string,
  ...codes: ErrorCode[]
) {
  return ofOne(action, target, {
    ...head,
    middleware: [requireWriter],
    request: { params: IdParamSchema },
    responses: noContent(description, ...codes),
  });
}

/**
 * `head` (method, path with `{id}`, operationId, summary) as a writer's change of one thing by a JSON
 * body of at most `maxBytes`: `audited(action, { target: [target, "param:id"] }, …)`, the `{id}`
 * path parameter, `body` as its JSON and `answers(200, schema, description, ...codes)`.
 */
export function changeRoute<
  H extends { method: string; path: string },
  B extends z.ZodType,
  T extends z.ZodType,
>(
  action: AuditAction,
  target: TargetType,
  head: H,
  maxBytes: number,
  body: B,
  schema: T,
  description: string,
  ...codes: ErrorCode[]
) {
  return ofOne(
    action,
    target,
    writing(
      head,
      maxBytes,
      { params: IdParamSchema, body: jsonRequest(body) },
      answers(200, schema, description, ...codes),
    ),
  );
}

/**
 * `head` (method, path, operationId, summary) as a writer's creation from a JSON body of at most
 * `maxBytes`: `audited(action, { target: [target, "response:id"] }, …)`, `body` as its JSON and
 * `responses` (`answers(201, …)`).
 */
export function createdRoute<
  H extends { method: string; path: string },
  B extends z.ZodType,
  A extends object,
>(action: AuditAction, target: TargetType, head: H, maxBytes: number, body: B, responses: A) {
  const request = { body: jsonRequest(body) };
  return audited(
    action,
    { target: [target, "response:id"] },
    writing(head, maxBytes, request, responses),
  );
}

/** A writer's route config with a JSON body of at most `maxBytes`. */
function writing<H extends object, R extends object, A extends object>(
  head: H,
  maxBytes: number,
  request: R,
  responses: A,
) {
  return { ...head, middleware: writerWithJson(maxBytes), request, responses };
}

/** `config` audited as `action` on the `{id}` of its path, of type `target`. */
function ofOne<C extends Parameters<typeof audited>[2]>(
  action: AuditAction,
  target: TargetType,
  config: C,
) {
  return audited(action, { target: [target, "param:id"] }, config);
}
