/**
 * One node of an untrusted definition: type, name, key and the settings of its type (docs/api/webhooks.md,
 * spec 2.5). Every problem is recorded; the node returned always has every field (defaults, or a
 * placeholder where a setting was wrong) so the caller can go on checking the rest of the graph.
 */
import { cloneJson, cloneJsonObject } from "../engine/clone";
import { isPlainObject } from "../engine/template";
import {
  COMMON_FIELDS,
  DEFAULT_NAMES,
  DEFAULT_REQUEST_METHOD,
  MAX_NAME_LENGTH,
  MAX_POSITION,
  NODE_SETTINGS,
  NUMBER_SETTINGS,
  type NumberRule,
  RESERVED_KEYS,
} from "./node-settings";
import {
  CONDITION_OPERATORS,
  CONVERSATION_EVENTS,
  type ConversationEvent,
  type DefinitionProblem,
  HTTP_METHODS,
  NODE_TYPES,
  type NodeType,
  RESPONSE_MODES,
  WEBHOOK_DEFAULTS,
  type WorkflowNode,
} from "./types";
import { readReply } from "./validate-reply";
import { readRespond } from "./validate-respond";
import { readRetry } from "./validate-retry";
import { readCallChecks } from "./validate-verify";

export const KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/** Reads settings of one node, reporting under `nodes[i].<field>`. */
class Settings {
  constructor(
    readonly raw: Record<string, unknown>,
    readonly path: string,
    readonly problems: DefinitionProblem[],
  ) {}

  has(field: string): boolean {
    return Object.hasOwn(this.raw, field);
  }

  report(field: string, code: string, message: string): void {
    this.problems.push({ field: `${this.path}.${field}`, code, message });
  }

  option<T extends string>(field: string, options: readonly T[], code: string, fallback: T): T {
    const value = this.raw[field];
    if (!this.has(field)) return fallback;
    if (typeof value !== "string") this.report(field, "invalid_type", `${field} must be a string.`);
    else if ((options as readonly string[]).includes(value)) return value as T;
    else this.report(field, code, `${field} must be one of ${options.join(", ")}.`);
    return fallback;
  }

  required(field: string): boolean {
    if (this.has(field)) return true;
    this.report(field, "required", `${field} is required.`);
    return false;
  }

  number(field: string, rule: NumberRule): number {
    const value = this.raw[field];
    if (!this.has(field)) return rule.fallback;
    if (typeof value !== "number") {
      this.report(field, "invalid_type", `${field} must be a number.`);
    } else if ((rule.integer && !Number.isInteger(value)) || value < rule.min || value > rule.max) {
      const kind = rule.integer ? "an integer" : "a number";
      this.report(
        field,
        "out_of_range",
        `${field} must be ${kind} from ${rule.min} to ${rule.max}.`,
      );
    } else {
      return value;
    }
    return rule.fallback;
  }

  text(field: string): string {
    const value = this.raw[field];
    if (typeof value === "string" && value !== "") return value;
    if (value === "" || !this.has(field)) this.report(field, "required", `${field} is required.`);
    else this.report(field, "invalid_type", `${field} must be a string.`);
    return "";
  }

  object(field: string): Record<string, unknown> | undefined {
    const value = this.raw[field];
    if (isPlainObject(value)) return value;
    this.report(field, "invalid_type", `${field} must be an object.`);
    return undefined;
  }

  events(): ConversationEvent[] {
    const value = this.raw.events;
    if (!this.has("events")) return [...CONVERSATION_EVENTS];
    if (!Array.isArray(value)) {
      this.report("events", "invalid_type", "events must be an array.");
      return [];
    }
    if (value.length === 0) this.report("events", "required", "events needs at least one event.");
    const events = new Set<ConversationEvent>();
    value.forEach((item, i) => {
      const event = CONVERSATION_EVENTS.find((known) => known === item);
      if (event) events.add(event);
      else if (typeof item !== "string")
        this.report(`events[${i}]`, "invalid_type", "Not a string.");
      else this.report(`events[${i}]`, "invalid_option", `Use ${CONVERSATION_EVENTS.join(", ")}.`);
    });
    return [...events];
  }

  headers(): Record<string, string> {
    if (!this.has("headers")) return {};
    const headers = this.object("headers") ?? {};
    for (const [name, value] of Object.entries(headers)) {
      if (typeof value !== "string") {
        this.report(`headers.${name}`, "invalid_type", "Header values must be strings.");
      }
    }
    return cloneJson(headers) as Record<string, string>;
  }
}

const report = (s: Settings) => (field: string, code: string, message: string) =>
  s.report(field, code, message);

function settingsOf(type: NodeType, s: Settings): WorkflowNode {
  const base = { key: "", name: "" };
  switch (type) {
    case "webhook":
      return {
        ...base,
        type,
        httpMethod: s.option(
          "httpMethod",
          HTTP_METHODS,
          "invalid_http_method",
          WEBHOOK_DEFAULTS.httpMethod,
        ),
        responseMode: s.option(
          "responseMode",
          RESPONSE_MODES,
          "invalid_option",
          WEBHOOK_DEFAULTS.responseMode,
        ),
        responseTimeoutSeconds: s.number(
          "responseTimeoutSeconds",
          NUMBER_SETTINGS.responseTimeoutSeconds,
        ),
        rateLimitPerMinute: s.number("rateLimitPerMinute", NUMBER_SETTINGS.rateLimitPerMinute),
        ...readCallChecks(s.raw, report(s)),
        ...readReply(
          s.raw,
          typeof s.raw.responseMode === "string" ? s.raw.responseMode : "immediate",
          report(s),
        ),
      };
    case "conversation_event":
      return { ...base, type, agentId: s.text("agentId"), events: s.events() };
    case "condition":
      return {
        ...base,
        type,
        left: s.required("left") ? cloneJson(s.raw.left) : null,
        operator: s.required("operator")
          ? s.option("operator", CONDITION_OPERATORS, "invalid_option", "equals")
          : "equals",
        right: s.has("right") ? cloneJson(s.raw.right) : null,
      };
    case "set": {
      const fields = s.required("fields") ? s.object("fields") : undefined;
      return { ...base, type, fields: fields ? cloneJsonObject(fields) : {} };
    }
    case "http_request": {
      const node: WorkflowNode = {
        ...base,
        type,
        method: s.option("method", HTTP_METHODS, "invalid_http_method", DEFAULT_REQUEST_METHOD),
        url: s.text("url"),
        headers: s.headers(),
        neverError: false,
        timeoutSeconds: s.number("timeoutSeconds", NUMBER_SETTINGS.timeoutSeconds),
      };
      if (s.has("neverError")) {
        if (typeof s.raw.neverError === "boolean") node.neverError = s.raw.neverError;
        else s.report("neverError", "invalid_type", "neverError must be true or false.");
      }
      if (s.has("body")) node.body = cloneJson(s.raw.body);
      const retry = s.has("retry") ? readRetry(s.raw.retry, report(s)) : undefined;
      return retry ? { ...node, retry } : node;
    }
    case "wait":
      s.required("seconds");
      return {
        ...base,
        type,
        seconds: s.number("seconds", NUMBER_SETTINGS.seconds),
      };
    case "respond":
      return { ...base, type, ...readRespond(s.raw, report(s)) };
  }
}

const isCoordinate = (value: unknown): value is number =>
  typeof value === "number" && Number.isFinite(value) && Math.abs(value) <= MAX_POSITION;

/** `position`: `{x, y}`, finite numbers of at most MAX_POSITION either way, nothing else. */
function readPosition(s: Settings): WorkflowNode["position"] {
  const raw = s.raw.position;
  const keys = isPlainObject(raw) ? Object.keys(raw).sort().join() : "";
  if (!isPlainObject(raw) || keys !== "x,y" || !isCoordinate(raw.x) || !isCoordinate(raw.y)) {
    const message = `position must be {x, y}, numbers from -${MAX_POSITION} to ${MAX_POSITION}.`;
    s.report("position", "invalid_type", message);
    return undefined;
  }
  return { x: raw.x, y: raw.y };
}

/** A parsed node; `key` is "" until the caller assigns the explicit or generated key. */
export type ParsedNode = { node: WorkflowNode; explicitKey: string | undefined };

/**
 * Checks node `index` of the input. Returns undefined when it has no usable type (not an object,
 * type missing or unknown); `knownKey` is then the key it names, if any, so connections to it do not
 * add a second, misleading problem.
 */
export function parseNode(
  raw: unknown,
  index: number,
  problems: DefinitionProblem[],
): { parsed?: ParsedNode; knownKey?: string } {
  const path = `nodes[${index}]`;
  if (!isPlainObject(raw)) {
    problems.push({ field: path, code: "invalid_type", message: "A node must be an object." });
    return {};
  }
  const s = new Settings(raw, path, problems);

  let explicitKey: string | undefined;
  if (s.has("key")) {
    if (typeof raw.key !== "string") s.report("key", "invalid_type", "key must be a string.");
    else {
      explicitKey = raw.key;
      if (RESERVED_KEYS.has(raw.key)) {
        s.report("key", "invalid_key", `"${raw.key}" is a reserved word; choose another key.`);
      } else if (!KEY_PATTERN.test(raw.key)) {
        s.report("key", "invalid_key", "key needs a letter, then up to 63 letters, digits or _.");
      }
    }
  }

  let name: string | undefined;
  if (s.has("name")) {
    if (typeof raw.name !== "string") s.report("name", "invalid_type", "name must be a string.");
    else if (raw.name.length === 0 || raw.name.length > MAX_NAME_LENGTH) {
      s.report("name", "out_of_range", `name must have 1 to ${MAX_NAME_LENGTH} characters.`);
    } else name = raw.name;
  }

  const type = NODE_TYPES.find((known) => known === raw.type);
  if (!s.has("type")) s.report("type", "required", "type is required.");
  else if (typeof raw.type !== "string") s.report("type", "invalid_type", "type must be a string.");
  else if (!type) {
    s.report("type", "unknown_node_type", `type must be one of ${NODE_TYPES.join(", ")}.`);
  }
  if (!type) return { knownKey: explicitKey };

  for (const field of Object.keys(raw)) {
    if (!COMMON_FIELDS.includes(field) && !NODE_SETTINGS[type].includes(field)) {
      s.report(field, "unknown_field", `${field} is not a setting of a ${type} node.`);
    }
  }
  const node = settingsOf(type, s);
  node.name = name ?? DEFAULT_NAMES[type];
  const position = s.has("position") ? readPosition(s) : undefined;
  if (position) node.position = position;
  return { parsed: { node, explicitKey }, knownKey: explicitKey };
}
