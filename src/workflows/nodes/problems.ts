/**
 * The one place where zod's issues with a node (or connection) become the API's problems
 * (docs/errors.md#invalid-request, docs/api/webhooks.md#definition): zod's issue codes map to the
 * detail codes in `detailCode`; a value the API reports otherwise says so where the model declares
 * it (`reported`); a rule of the model names its code in `params.code`.
 */
import { z } from "@hono/zod-openapi";
import type { DetailCode } from "../../platform/detail-codes";
import { isPlainObject } from "../engine/template";

/** One problem of a definition; `field` is a path like `nodes[2].httpMethod` or `connections[0].to`. */
export type DefinitionProblem = { field: string; code: DetailCode; message: string };
/** A problem of a node, `path` from the node; `alone`: all that is said of its field and inside it. */
export type NodeProblem = DefinitionProblem & { path: Segment[]; alone?: true };
/** Reports a problem at `path` from the value with detail code `code`; `alone`: all said of it. */
export type Flag = (path: Segment[], code: DetailCode, message: string, alone?: true) => void;
/** An issue a rule reports (its detail code in `params`) to zod's refinement context or `judge`'s. */
type RuleIssue = { code: "custom"; path: Segment[]; message: string; params: Params };

/** The `Flag` that adds its problems to `ctx` (a refinement's) as zod issues. */
export const flagTo =
  (ctx: { addIssue(issue: RuleIssue): void }): Flag =>
  (path, code, message, alone) =>
    ctx.addIssue({ code: "custom", path, message, params: alone ? { code, alone } : { code } });

/**
 * How a value's problems are reported where zod's codes do not say it: `code`, any problem of the
 * value or inside it, once, at the value; or `codes`, a detail code by zod's issue code, at the
 * issue's path. `message` replaces zod's.
 */
export type Reported = {
  code?: DetailCode;
  codes?: Record<string, DetailCode>;
  message?: string;
};

type Segment = PropertyKey;
type Params = { code: DetailCode; alone?: true };
type Issue = z.core.$ZodIssue & { input?: unknown; params?: Params; keys?: string[] };
type Def = { type: string; shape?: Record<string, z.ZodType>; options?: z.ZodType[] } & Partial<
  Record<"innerType" | "in" | "out" | "valueType" | "element", z.ZodType>
> & { discriminator?: string };

const REPORTED = z.registry<Reported>();
const defOf = (schema: z.ZodType) => schema._zod.def as unknown as Def;

/** `schema`, whose problems are reported as `how` says; call it last (`.openapi()` copies). */
export function reported<T extends z.ZodType>(schema: T, how: Reported): T {
  REPORTED.add(schema, how);
  return schema;
}

/**
 * `schema` and what it wraps, outermost first: optional and default wrappers, a preprocess's
 * target, a transform's source; the last is what the value is checked against.
 */
export function layersOf(schema: z.ZodType): z.ZodType[] {
  const def = defOf(schema);
  const piped = def.in && defOf(def.in).type === "transform" ? def.out : def.in;
  const inner = def.type === "pipe" ? piped : def.innerType;
  return inner ? [schema, ...layersOf(inner)] : [schema];
}

/** The schema of `segment` in `schema`: a property, a record's value, an item; a union's first. */
function childOf(schema: z.ZodType, segment: Segment): z.ZodType | undefined {
  const def = defOf(layersOf(schema).at(-1) as z.ZodType);
  if (def.type === "object") return def.shape?.[String(segment)];
  const options = (def.options ?? []).map((option) => childOf(option, segment));
  return def.valueType ?? def.element ?? options.find(Boolean);
}

/** The schemas at each depth of `path` from `schema` (index 0: `schema` itself). */
function schemasAlong(schema: z.ZodType, path: Segment[]): (z.ZodType | undefined)[] {
  const along: (z.ZodType | undefined)[] = [schema];
  for (const segment of path) {
    const last = along.at(-1);
    along.push(last && childOf(last, segment));
  }
  return along;
}

/** The outermost `reported` rule along `path`, and how deep it is. */
function ruleAlong(schema: z.ZodType, path: Segment[]) {
  for (const [depth, at] of schemasAlong(schema, path).entries()) {
    const rule =
      at &&
      layersOf(at)
        .map((layer) => REPORTED.get(layer))
        .find(Boolean);
    if (rule) return { rule, depth };
  }
  return undefined;
}

/** An option of a failed union that took the value's shape: it failed past its root. */
const fits = (issues: Issue[]) =>
  issues.some(({ path, code }) => path.length > 0 || !/^invalid_(type|value)$/.test(code));

/**
 * The issues one by one, paths from the node: a failed union's by the first option that fits the
 * value (none: the value is of no allowed type), a record key's own, each unknown key alone.
 */
function flatten(issues: Issue[], prefix: Segment[]): Issue[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    if (issue.code === "invalid_union") {
      const option = (issue.errors as Issue[][]).find(fits);
      return option
        ? flatten(option, path)
        : [{ ...issue, code: "invalid_type", path } as unknown as Issue];
    }
    if (issue.code === "invalid_key") return flatten(issue.issues as Issue[], path);
    if (issue.code !== "unrecognized_keys") return [{ ...issue, path }];
    return issue.keys.map((key) => ({ ...issue, path: [...path, key], keys: [key] }));
  });
}

/** zod's kind of issue; a value not of an enum's type is of the wrong type. */
const kindOf = (issue: Issue) =>
  issue.code === "invalid_value" && typeof issue.input !== typeof issue.values[0]
    ? "invalid_type"
    : issue.code;

/**
 * The detail code of a zod issue (docs/errors.md#invalid-request): a missing value is `required`;
 * a number out of range or not whole, a text or list too long or short `out_of_range`; a value
 * not among the options `invalid_option`; a key the object does not take `unknown_field`, or
 * `not_allowed` when another variant takes it (hmac-sha256's `header` under another preset).
 */
function detailCode(kind: string, issue: Issue, variant: string | undefined): DetailCode {
  if (kind === "unrecognized_keys") return variant ? "not_allowed" : "unknown_field";
  if (issue.input === undefined && /^(invalid_type|custom)$/.test(kind)) return "required";
  if (/^too_(small|big)$/.test(kind) || ("expected" in issue && issue.expected === "int")) {
    return "out_of_range";
  }
  return kind === "invalid_value" ? "invalid_option" : "invalid_type";
}

const fieldOf = (path: Segment[]) =>
  path.map((s, i) => (typeof s === "number" ? `[${s}]` : `${i ? "." : ""}${String(s)}`)).join("");

function messageOf(code: string, path: Segment[], variant: string | undefined, zod: string) {
  const name = String(path.at(-1));
  if (code === "required") return `${name} is required.`;
  if (code === "unknown_field") return `${name} is not a field here.`;
  return code === "not_allowed" && variant ? `${name} is not allowed with this ${variant}.` : zod;
}

/**
 * The problems zod found in a node against `schema`, its model: field paths from the node
 * (`verify.secret`, `events[0]`), each field and code once. A value of the wrong type is said to
 * be only that (zod also measures a list given for a text).
 */
function nodeProblems(schema: z.ZodType, issues: readonly z.core.$ZodIssue[]) {
  const problems = new Map<string, NodeProblem>();
  const flat = flatten(issues as Issue[], []);
  const mistyped = flat.filter((i) => kindOf(i) === "invalid_type").map((i) => fieldOf(i.path));
  for (const issue of flat) {
    const kind = kindOf(issue);
    if (/^too_/.test(kind) && mistyped.includes(fieldOf(issue.path))) continue;
    // An unknown key has no schema of its own: only rules about its object apply.
    const at = kind === "unrecognized_keys" ? issue.path.slice(0, -1) : issue.path;
    const found = issue.params ? undefined : ruleAlong(schema, at);
    const path = found?.rule.code ? issue.path.slice(0, found.depth) : issue.path;
    // A key the other variant of a discriminated union takes: named after its discriminator.
    const parent = kind === "unrecognized_keys" ? schemasAlong(schema, at).at(-1) : undefined;
    const union = parent && defOf(layersOf(parent).at(-1) as z.ZodType).discriminator;
    const variant = union && childOf(parent, issue.path.at(-1) as Segment) ? union : undefined;
    const code =
      issue.params?.code ??
      found?.rule.code ??
      found?.rule.codes?.[kind] ??
      detailCode(kind, issue, variant);
    const field = fieldOf(path);
    const message = messageOf(code, path, variant, found?.rule.message ?? issue.message);
    problems.set(`${field} ${code}`, { field, code, message, path, ...issue.params });
  }
  const alone = [...problems.values()].filter((p) => p.alone).map(({ field }) => field);
  return [...problems.values()].filter(
    (p) => p.alone || !alone.some((f) => p.field === f || p.field.startsWith(`${f}.`)),
  );
}

/**
 * A node (or connection) judged by its model (common.ts): its value with the defaults filled in,
 * or its problems. The model's rules are a refinement that runs even when a setting is wrong, but
 * zod skips refinements after a number that is not whole (its int check aborts): they run here
 * then, on the node as given.
 */
export function judge<T>(
  model: { schema: z.ZodType<T>; rules?: (node: Given, flag: Flag) => void },
  raw: unknown,
): { ok: true; node: T } | { ok: false; problems: NodeProblem[] } {
  const result = model.schema.safeParse(raw, { reportInput: true });
  if (result.success) return { ok: true, node: result.data };
  const issues = [...result.error.issues];
  if (issues.some((issue) => "expected" in issue && issue.expected === "int")) {
    model.rules?.(raw as Given, flagTo({ addIssue: (i) => issues.push(i as z.core.$ZodIssue) }));
  }
  return { ok: false, problems: nodeProblems(model.schema, issues) };
}

/** A node's values as given, wrong ones too: what the rules of its model read. */
export type Given = Record<string, unknown>;

/** Lets a rule run even when a setting is wrong, on the values as given (an object's). */
export const whenObject = { when: (payload: { value: unknown }) => isPlainObject(payload.value) };
