/**
 * Reading the served OpenAPI document in tests (docs/errors.md#codes): the error codes an
 * operation documents at a status, from its response's `code` enum.
 */

type Responses = Record<string, { description: string; content?: Record<string, unknown> }>;

/** The parts of `/openapi.json` these helpers read. */
export type OpenApiDocument = {
  paths: Record<string, Record<string, { responses: Responses }>>;
};

/** The codes `method path` (method in lower case) documents at `status`; [] for none. */
export function codesAt(
  document: OpenApiDocument,
  path: string,
  method: string,
  status: number,
): string[] {
  const response = document.paths[path]?.[method]?.responses[String(status)];
  const schema = (response?.content?.["application/json"] as { schema?: unknown })?.schema as
    | { allOf: [unknown, { properties: { error: { properties: { code: { enum: string[] } } } } }] }
    | undefined;
  return schema?.allOf[1].properties.error.properties.code.enum ?? [];
}
