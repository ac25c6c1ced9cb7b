/**
 * The respond node's settings (docs/webhooks.md#respond-node): `status`, `headers`, `body` and
 * `contentType`, and the rule that a respond node must follow a webhook whose responseMode is
 * `responseNode` (else it could never answer anything). Headers and body pass the immediate
 * reply's checks (validate-reply.ts).
 */
import { ancestorsOf, neighbours } from "../engine/graph";
import { replyHasNoBody } from "../engine/respond";
import { REPLY_CONTENT_TYPES } from "./reply";
import type {
  Connection,
  DefinitionProblem,
  ReportProblem,
  RespondNode,
  WorkflowNode,
} from "./types";
import { readReplyBody, readReplyHeaders } from "./validate-reply";

/** The settings of a respond node, in the order they are checked. */
export const RESPOND_FIELDS = ["status", "headers", "body", "contentType"] as const;
/** The statuses a respond node may answer with, and its default. */
export const RESPOND_STATUS = { min: 200, max: 599, fallback: 200 } as const;
/** A respond node's contentType when it has none. */
export const DEFAULT_CONTENT_TYPE = "json";

/**
 * Reads a respond node's settings (untrusted JSON), reporting each problem under its field:
 * `status` an integer 200..599 (default 200); `contentType` json, text, html or xml (default
 * json); `headers` as an immediate reply's (default none); `body` any JSON up to 16 KiB. A 3xx
 * needs a `location` header (missing_location), and a status without a body refuses one
 * (not_allowed). Wrong settings come back as their defaults.
 */
export function readRespond(
  raw: Record<string, unknown>,
  report: ReportProblem,
): Omit<RespondNode, "key" | "name" | "type"> {
  const settings: Omit<RespondNode, "key" | "name" | "type"> = {
    status: RESPOND_STATUS.fallback,
    headers: {},
    contentType: DEFAULT_CONTENT_TYPE,
  };
  if (Object.hasOwn(raw, "status")) {
    const { status } = raw;
    if (typeof status !== "number") report("status", "invalid_type", "status must be a number.");
    else if (
      !Number.isInteger(status) ||
      status < RESPOND_STATUS.min ||
      status > RESPOND_STATUS.max
    ) {
      const range = `${RESPOND_STATUS.min} to ${RESPOND_STATUS.max}`;
      report("status", "out_of_range", `status must be an integer from ${range}.`);
    } else settings.status = status;
  }
  if (Object.hasOwn(raw, "contentType")) {
    const type = REPLY_CONTENT_TYPES.find((known) => known === raw.contentType);
    if (type) settings.contentType = type;
    else if (typeof raw.contentType !== "string") {
      report("contentType", "invalid_type", "contentType must be a string.");
    } else {
      report("contentType", "invalid_option", `Use ${REPLY_CONTENT_TYPES.join(", ")}.`);
    }
  }
  if (Object.hasOwn(raw, "headers")) {
    settings.headers = readReplyHeaders(raw.headers, "headers", report) ?? {};
  }
  if (Object.hasOwn(raw, "body")) {
    const body = readReplyBody(raw.body, "body", report);
    if (body !== undefined) settings.body = body;
  }
  const { status } = settings;
  if (status >= 300 && status <= 399 && !Object.hasOwn(settings.headers, "location")) {
    report(
      "headers",
      "missing_location",
      `A ${status} answer is a redirect: set headers.location.`,
    );
  }
  if (replyHasNoBody(status) && Object.hasOwn(raw, "body")) {
    report("body", "not_allowed", `A ${status} answer carries no body.`);
  }
  return settings;
}

/**
 * A problem (respond_unreachable) for every respond node that no webhook with responseMode
 * `responseNode` leads to: such a node would answer nothing.
 * @param entries the parsed nodes with their index in the input
 * @param edges the connections whose both ends are parsed nodes
 */
export function unreachableResponds(
  entries: { node: WorkflowNode; index: number }[],
  edges: Connection[],
): DefinitionProblem[] {
  const previous = neighbours(edges, "backward");
  const answering = new Set(
    entries.flatMap(({ node }) =>
      node.type === "webhook" && node.responseMode === "responseNode" ? [node.key] : [],
    ),
  );
  return entries.flatMap(({ node, index }) => {
    if (node.type !== "respond") return [];
    for (const key of ancestorsOf(node.key, previous)) if (answering.has(key)) return [];
    return [
      {
        field: `nodes[${index}]`,
        code: "respond_unreachable",
        message: `No webhook with responseMode "responseNode" leads to "${node.key}".`,
      },
    ];
  });
}
