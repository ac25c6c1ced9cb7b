/**
 * Every code a `details` entry can carry (docs/errors.md#detail-codes): `invalid_request`'s
 * `{field, code, message}` (the API's schemas and the workflow model), `invalid_parameters`'s
 * `{code, name}`. The page's table is checked against this list (test/scripts/errors-doc.spec.ts),
 * and so is every detail code written in src/.
 */
export const DETAIL_CODES = {
  unknown_field: "A field or query parameter the operation does not take.",
  invalid_type: "A value of the wrong type.",
  out_of_range: "Too long, too short, too large, too small, or not a whole number.",
  required: "A required field is missing.",
  invalid_option: "A value that is not one of the allowed ones.",
  invalid_format: "A text not in its format (an email, a URL, a slug).",
  invalid_value: "A value its rule refuses; `message` says why.",
  invalid_json: "The body is not JSON.",
  unsupported_media_type: "The `Content-Type` is not `application/json`.",
  too_deep: "Objects and arrays nest deeper than 64 levels ([limits.md](limits.md#nesting)).",
  reserved_key:
    "An object key `__proto__`, `constructor` or `prototype` where keys are free (link metadata).",
  unknown_agent: "The agent id names no agent of the workspace.",
  unknown_parameter: "`invalid_parameters`: a launch parameter the channel does not define.",
  missing_required: "`invalid_parameters`: a required launch parameter is missing.",
  unknown_node_type: "Workflow: a node's `type` that is not a node type.",
  duplicate_key: "Workflow: two nodes, or two sticky notes, have the same key.",
  no_trigger: "Workflow: no trigger node (webhook or conversation_event).",
  unknown_node: "Workflow: a connection names a node key that no node has.",
  missing_branch:
    'Workflow: a connection leaving a condition or ask_person has no `branch` ("true"/"false", "answered"/"timeout").',
  unexpected_branch:
    "Workflow: a connection has a `branch` its source does not have (only conditions and ask_person nodes have branches).",
  trigger_has_input: "Workflow: a connection goes into a trigger.",
  duplicate_connection: "Workflow: the same connection appears twice.",
  cycle: "Workflow: the connections make a loop.",
  invalid_reference:
    "Workflow: a `{{…}}` template names no node, the node itself, or a node that does not come before it.",
  respond_unreachable:
    'Workflow: a respond node that no webhook with `responseMode: "responseNode"` leads to.',
  invalid_key:
    "Workflow: a node key or field name that is not allowed (a reserved word or format).",
  not_allowed:
    "Workflow: a setting not allowed with the node's other settings (a body on a 204, a preset's field under another).",
  invalid_http_method: "Workflow: a webhook's `httpMethod` that is not an HTTP method it takes.",
  invalid_secret:
    'Workflow: a `verify.secret` that is not `"{{secrets.NAME}}"` or a list of two of them.',
  missing_location: "Workflow: a respond node's 3xx status without `headers.location`.",
  invalid_header: "Workflow: a header name HTTP does not allow.",
  refused_header: "Workflow: a header the service sets itself or refuses to send.",
  too_large: "Workflow: more headers than allowed, or a value over its size.",
} as const;

/** One of DETAIL_CODES. */
export type DetailCode = keyof typeof DETAIL_CODES;

/** Whether `code` is one of DETAIL_CODES. */
export function isDetailCode(code: unknown): code is DetailCode {
  return typeof code === "string" && Object.hasOwn(DETAIL_CODES, code);
}
