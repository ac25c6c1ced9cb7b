/**
 * What every node model is built from (docs/api/webhooks.md#definition): the fields every node has
 * (`key`, `type`, `name`, `position`), settings with defaults, any-JSON values, and `defineNode`,
 * which makes a type's model: one zod schema that checks a node, fills in its defaults, types it
 * and is its OpenAPI component, with what the graph checks and the dashboard's editor need.
 */
import { z } from "@hono/zod-openapi";
import type { JsonValue } from "../../platform/json";
import { once } from "../../platform/once";
import { isPlainObject } from "../engine/template";
import { type Flag, flagTo, type Given, type Reported, reported, whenObject } from "./problems";

/** A node's key: names it in templates and URLs. */
export const KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
// `secrets` is the template namespace; the other two are path segments templates refuse to read.
const RESERVED_KEYS = ["secrets", "constructor", "prototype"];
/** How far from 0 a node's canvas `position` may be, either way (px). */
const MAX_POSITION = 1_000_000;

const shown = (value: unknown): string =>
  Array.isArray(value) ? value.map(shown).join(", ") : JSON.stringify(value);

/** A setting's description (`about`) and example, and how its problems are reported. */
type About = Reported & { about?: string; example?: string };

/** `schema` described as `about` says, its problems reported as `how` says (problems.ts). */
export function setting<T extends z.ZodType>(schema: T, { about, example, ...how }: About): T {
  const described = about ? schema.openapi({ description: about, example }) : schema;
  return how.code || how.codes ? reported(described, how) : described;
}

/**
 * An optional setting that becomes `value` when left out. The default is told in the description
 * (else in `schema`'s) rather than by zod's `.default()`, which the OpenAPI document would show as
 * `default`: the SDK's generator makes such properties required, and these also type requests.
 */
export function withDefault<T extends z.ZodType>(schema: T, value: z.input<T>, about?: About) {
  const filled = z.preprocess((input) => (input === undefined ? value : input), schema);
  const told = about?.about && `${about.about} Default: ${shown(value)}.`;
  return setting(filled, { ...about, about: told });
}

/**
 * An object `schema` taking `null` as left out for the keys `keys` names, as the hand-written
 * validator did for a few settings; the OpenAPI document shows them without null.
 */
export function withoutNulls<T extends z.ZodType>(keys: (input: Given) => string[], schema: T) {
  const drop = (input: unknown) =>
    isPlainObject(input)
      ? Object.fromEntries(
          Object.entries(input).filter(([k, v]) => v !== null || !keys(input).includes(k)),
        )
      : input;
  return z.preprocess(drop, schema);
}

/** A text that may not be empty (`required` when it is), of at most `max` characters if given. */
export function requiredText(about: string, max?: number) {
  const text = z.string().min(1);
  return setting(max ? text.max(max) : text, { about, codes: { too_small: "required" } });
}

/** A whole number from `min` to `max`: any problem with it is `out_of_range`, told by `message`. */
export const wholeNumber = (min: number, max: number, about: string, message?: string) =>
  setting(z.number().int().min(min).max(max), {
    about,
    code: "out_of_range",
    message: message ?? `An integer from ${min} to ${max.toLocaleString("en-US")}.`,
  });

/** Any JSON value (request bodies are parsed JSON), its strings templates where the setting says. */
export const jsonValue = () => z.unknown() as unknown as z.ZodType<JsonValue>;

/** What is at `path` in `value`, through plain objects only; undefined when nothing is. */
export const valueAt = (value: unknown, path: readonly PropertyKey[]) =>
  path.reduce<unknown>((at, key) => (isPlainObject(at) ? at[String(key)] : undefined), value);

/** `key`, `type`, `name` and `position`, which every node may have; `label` is the default name. */
function common<T extends string>(type: T, label: string) {
  const reserved = { message: "A reserved word.", params: { code: "invalid_key" } };
  const Coordinate = z.number().min(-MAX_POSITION).max(MAX_POSITION);
  const key = z
    .string()
    .regex(KEY_PATTERN)
    .refine((k) => !RESERVED_KEYS.includes(k), reserved);
  return {
    key: setting(key.optional(), {
      about: `Unique in the workflow; names the node in templates and URLs. Not ${RESERVED_KEYS.join(", ")}. Default: \`<type>_<n>\` with the smallest n no other node has.`,
      codes: { invalid_format: "invalid_key" },
    }),
    type: z.literal(type),
    name: withDefault(z.string().min(1).max(200), label, { about: "Label shown on the canvas." }),
    position: setting(z.strictObject({ x: Coordinate, y: Coordinate }).optional(), {
      about: "Where the dashboard's canvas draws the node (px); runs ignore it.",
      code: "invalid_type",
      message: `position must be {x, y}, numbers from -${MAX_POSITION} to ${MAX_POSITION}.`,
    }),
  };
}

/** What is checked of a node of no known type: its key and name, as every node's. */
export const untypedNode = once(() => {
  const { key, name } = common("", "Node");
  return z.object({ key, name });
});

type Output<T extends string, S extends z.ZodRawShape> = z.output<
  z.ZodObject<ReturnType<typeof common<T>> & S, z.core.$strict>
>;

/** What makes a node type (docs/api/webhooks.md#definition). */
type Spec<T extends string, S extends z.ZodRawShape> = {
  type: T;
  /** Its default name, as the palette and the canvas show it. */
  label: string;
  /** It starts executions, and nothing connects into it. */
  trigger?: boolean;
  /** The settings whose strings are templates, as dotted paths (`dedupe.key`). */
  templated?: readonly string[];
  /** The branches connections leaving it carry (condition's `true`/`false`); none: no branch. */
  branches?: readonly string[];
  /** Its settings, built on first use (with the model's schema: docs/performance.md#start-up). */
  settings: () => S;
  /** Its OpenAPI component's description; the component is named after the type (`componentOf`). */
  description?: string;
  /** Rules across settings: they run even when a setting is wrong, on the values as given. */
  rules?: (node: Given, flag: Flag) => void;
  /** Defaults that depend on other settings, filled in once the node is valid. */
  normalize?: (node: Output<T, S>) => Output<T, S>;
  /** The shape of its output, whose fields the editor offers to later nodes' templates. */
  output: (node: Given) => unknown;
};

/** A type's OpenAPI component: `http_request` → `HttpRequestNode`. */
const componentOf = (type: string) =>
  `${type.replace(/(?:^|_)([a-z])/g, (_, letter: string) => letter.toUpperCase())}Node`;

/**
 * A node type's model: `schema` checks a node (every unknown key refused), fills in its defaults
 * and is the OpenAPI component `componentOf(type)`; the rest describes the type to the graph checks
 * (docs/api/webhooks.md#definition) and the editor (docs/dashboard.md#workflow-editor).
 */
export function defineNode<T extends string, S extends z.ZodRawShape>(spec: Spec<T, S>) {
  const { type, label, rules, normalize } = spec;
  // Built on first use: zod builds a schema as it is declared, and seven models at start-up were
  // a sixth of the Worker's (docs/performance.md#start-up).
  const schema = once(() =>
    z
      .strictObject({ ...common(type, label), ...spec.settings() })
      .superRefine((node, ctx) => rules?.(node as Given, flagTo(ctx)), whenObject)
      .overwrite((node) => (normalize ? normalize(node as Output<T, S>) : node) as typeof node)
      .openapi(componentOf(type), spec.description ? { description: spec.description } : {}),
  );
  return {
    trigger: false,
    templated: [] as readonly string[],
    branches: [] as readonly string[],
    ...spec,
    /** The node's schema (built on first use). */
    get schema() {
      return schema();
    },
  };
}
