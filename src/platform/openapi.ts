/**
 * Shared OpenAPI schemas: the error envelope and error responses, so every route documents its errors.
 */
import { z } from "@hono/zod-openapi";

export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: "invalid_request" }),
      message: z.string(),
      details: z.array(z.record(z.string(), z.unknown())),
      requestId: z.string(),
    }),
  })
  .openapi("Error");

const DESCRIPTIONS: Record<number, string> = {
  400: "invalid_request or invalid_parameters; `details` lists every problem",
  401: "invalid_key: missing, unknown, revoked or expired credential",
  403: "browser_not_allowed, insufficient_scope or forbidden_flow",
  404: "not_found, widget_not_found or webhook_not_found",
  409: "conflict, e.g. too_many_pending_links",
  405: "method_not_allowed; see Allow",
  413: "invalid_request (API) or payload_too_large (webhooks): body larger than the limit",
  422: "invalid_body: the body does not parse as its Content-Type says",
  429: "rate_limited; see Retry-After",
  500: "workflow_failed; `details` carries executionId and the failing node",
  504: "workflow_timeout; `details` carries executionId",
};

/** OpenAPI `responses` entries for the given error statuses, all with the error envelope. */
export function errorResponses<S extends number>(
  ...statuses: S[]
): Record<
  S,
  { description: string; content: { "application/json": { schema: typeof ErrorSchema } } }
> {
  const out = {} as Record<
    S,
    { description: string; content: { "application/json": { schema: typeof ErrorSchema } } }
  >;
  for (const status of statuses) {
    out[status] = {
      description: DESCRIPTIONS[status] ?? "Error",
      content: { "application/json": { schema: ErrorSchema } },
    };
  }
  return out;
}

/** `{id}` path parameter. */
export const IdParamSchema = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "id", in: "path" } }),
});
