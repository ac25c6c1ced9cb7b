/**
 * The route config of a change that removes one thing of the workspace by its `{id}` (delete an
 * agent, a member, a workflow, an event endpoint; revoke a widget key or a link): owners and admins
 * only, recorded in the audit log (docs/security.md#audit-log), answered 204 with no body.
 */
import { audited } from "../audit";
import type { AuditAction, TargetType } from "../audit/actions";
import type { ErrorCode } from "../platform/errors";
import { IdParamSchema, noContent } from "../platform/openapi";
import { requireWriter } from "./middleware";

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
  return audited(
    action,
    { target: [target, "param:id"] },
    {
      ...head,
      middleware: [requireWriter],
      request: { params: IdParamSchema },
      responses: noContent(description, ...codes),
    },
  );
}
