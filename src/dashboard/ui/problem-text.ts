/**
 * What is wrong with a value, in plain words (docs/dashboard.md#forms-and-problems): the one
 * place where an API error detail (`{field, code, message}`, codes of docs/errors.md#detail-codes)
 * or a zod issue found in the browser becomes a sentence a person reads under the field, e.g.
 * "Enter a name.", "Use at most 64 characters.", "Choose an operator.", "Parameter 2: this name
 * is used twice.". Items of a list are numbered as the person sees them (from 1), never as the
 * path has them; zod's own text ("Too small: expected …") is never shown.
 */

import { fieldKeyOf, labelOf, placeOf, segmentsOf } from "./problem-paths";

export { fieldKeyOf, labelOf, placeOf, segmentsOf };

/** How a form names one of its fields, and what kind of control it is (picks the verb). */
export type FieldLabel = { label: string; kind?: FieldKind };
/** `choice`: a select or radios ("Choose …"); `json`: an object typed as JSON; else typed text. */
export type FieldKind = "text" | "choice" | "number" | "json" | "list" | "boolean";
/** The form's fields by path without list indexes (`name`, `parameters.name`, `dedupe.key`). */
export type FieldLabels = Record<string, FieldLabel>;

/** A problem as the API's details and the workflow model carry it. */
export type DetailLike = { field?: string; code?: string; message?: string };
/** What `problemOf` reads of a zod issue (zod 4's `$ZodIssue`, loosely, so the API's rules fit). */
export type IssueLike = {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  expected?: string;
  values?: readonly unknown[];
  format?: string;
  input?: unknown;
  keys?: readonly string[];
};

/** A problem placed on its field: `field` the path without indexes ("" for the form as a whole). */
export type PlacedProblem = { field: string; path: string; message: string };

/** zod's and the API's own wording, never shown as it is. */
const SCHEMA_TEXT =
  /^(too (small|big)|invalid\b|expected |unrecognized key|this field is required|unknown field)/i;

/** The label in a sentence: "name", but "URL" and "HTTP method" keep their capitals. */
function inSentence(label: string): string {
  return /^[A-Z]{2}/.test(label) ? label : label.charAt(0).toLowerCase() + label.slice(1);
}

const article = (word: string) => (/^([aeio]|u(?!s|r)|HTTP)/i.test(word) ? "an" : "a");

/** The bound a `too_small`/`too_big` names: the issue's, or the number in the API's message. */
function boundOf(problem: { message?: string; minimum?: unknown; maximum?: unknown }) {
  const given = problem.maximum ?? problem.minimum;
  if (given !== undefined) return Number(given);
  const found = /[<>]=?\s*(-?\d+(\.\d+)?)/.exec(problem.message ?? "");
  return found ? Number(found[1]) : undefined;
}

/** The unit a length is counted in, from the issue's origin or the API's message. */
function unitOf(origin: string | undefined, message: string): "characters" | "items" | "number" {
  if (origin === "string" || /characters?/.test(message)) return "characters";
  if (origin === "array" || origin === "set" || /items?|elements?/.test(message)) return "items";
  return "number";
}

type Said = {
  code: string;
  message: string;
  big?: boolean;
  bound?: number;
  unit?: "characters" | "items" | "number";
  expected?: string;
  values?: readonly unknown[];
  format?: string;
};

/** The sentence for one problem of the field named `label` (a control of `kind`). */
function sentence(said: Said, label: string, kind: FieldKind | undefined): string {
  const name = inSentence(label);
  const enter = kind === "choice" || kind === "boolean" ? "Choose" : "Enter";
  const given = said.message.trim();
  // A rule's own sentence ("Use https …") is already plain: said as it is.
  const plain = given && !SCHEMA_TEXT.test(given) && !/^\w+ is (required|not a field)/.test(given);
  if (plain && !/^(required|unknown_field)$/.test(said.code)) {
    if (/^duplicate\b.*\bname\.?$/i.test(given)) return "This name is used twice.";
    return /[.!?]$/.test(given) ? given : `${given}.`;
  }
  switch (said.code) {
    case "required":
      if (kind === "json") return `Enter the ${name} as a JSON object.`;
      return `${enter} ${article(name)} ${name}.`;
    case "out_of_range": {
      const { bound, unit = "number" } = said;
      if (said.expected === "int" || /integer|whole/i.test(given)) return "Use a whole number.";
      if (bound === undefined) return `Use a ${name} in the allowed range.`;
      if (unit === "characters" && !said.big && bound === 1) {
        return `${enter} ${article(name)} ${name}.`;
      }
      const most = said.big ? "at most" : "at least";
      if (unit === "number") return `Use ${bound} or ${said.big ? "less" : "more"}.`;
      return `Use ${most} ${bound} ${bound === 1 ? unit.replace(/s$/, "") : unit}.`;
    }
    case "invalid_option": {
      const values = said.values ?? [...given.matchAll(/"([^"]*)"/g)].map((match) => match[1]);
      if (kind === "choice" || values.length === 0) return `Choose ${article(name)} ${name}.`;
      return `Use one of: ${values.join(", ")}.`;
    }
    case "invalid_type": {
      const expected = said.expected ?? /expected (\w+)/i.exec(given)?.[1] ?? "";
      if (kind === "json" || /^(record|object)$/.test(expected)) {
        return `Enter the ${name} as a JSON object.`;
      }
      if (expected === "int") return "Use a whole number.";
      if (expected === "array" || kind === "list") return `Enter the ${name} as a list.`;
      if (/^(number|int|bigint)$/.test(expected) || kind === "number") return "Enter a number.";
      if (expected === "boolean" || kind === "boolean") return "Choose yes or no.";
      if (kind === "choice") return `Choose ${article(name)} ${name}.`;
      return `Enter the ${name} as text.`;
    }
    case "invalid_format": {
      const format = said.format ?? given.toLowerCase();
      if (/email/.test(format)) return "Enter an email address, like name@example.com.";
      if (/url/.test(format)) return "Enter a full URL, like https://example.com/hook.";
      return `Check the ${name}: it is not in its format.`;
    }
    case "unknown_field":
      return `${label} is not a setting here.`;
    case "invalid_json":
      return "Enter valid JSON.";
    case "too_deep":
      return `The ${name} nests too deep (64 levels at most).`;
    case "reserved_key":
      return `Choose another ${name}: this one is reserved.`;
    case "unknown_agent":
      return "Choose an agent of this workspace.";
    default:
      return `Check the ${name}.`;
  }
}

/** The field's label: the form's own, else its name in words (the whole form: none). */
function labelFor(segments: (string | number)[], labels: FieldLabels) {
  const key = fieldKeyOf(segments);
  const last = segments.filter((part) => typeof part === "string").at(-1);
  return labels[key] ?? { label: last === undefined ? "value" : labelOf(last) };
}

/** `sentence` after where it stands in a list: "Parameter 2: enter a name." */
function placed(segments: (string | number)[], text: string): string {
  const place = placeOf(segments);
  if (!place) return text;
  const start = /^[A-Z]{2}/.test(text) ? text : text.charAt(0).toLowerCase() + text.slice(1);
  return `${place}: ${start}`;
}

/**
 * The plain sentence for an API error detail (or a workflow model's problem), with the field's
 * label from `labels` (by its path without indexes) or its name in words.
 */
export function detailText(detail: DetailLike, labels: FieldLabels = {}): string {
  const segments = segmentsOf(detail.field);
  const { label, kind } = labelFor(segments, labels);
  const message = detail.message ?? "";
  const said: Said = {
    code: detail.code ?? "",
    message,
    big: /too big|<=?|at most|too long|too large/i.test(message),
    bound: boundOf({ message }),
    unit: unitOf(undefined, message),
  };
  return placed(segments, sentence(said, label, kind));
}

/** zod's issue codes as the API's detail codes (src/platform/validation.ts). */
function codeOfIssue(issue: IssueLike): string {
  switch (issue.code) {
    case "too_small":
    case "too_big":
      return "out_of_range";
    case "invalid_type":
      return "input" in issue && issue.input === undefined ? "required" : "invalid_type";
    case "invalid_value":
      return "invalid_option";
    case "unrecognized_keys":
      return "unknown_field";
    case "invalid_union":
      return "invalid_type";
    default:
      return issue.code;
  }
}

/** The plain sentence for a zod issue found in the browser, as `detailText` says a detail. */
export function issueText(issue: IssueLike, labels: FieldLabels = {}): string {
  const segments = segmentsOf(issue.path);
  const { label, kind } = labelFor(segments, labels);
  const said: Said = {
    code: codeOfIssue(issue),
    message: issue.message,
    big: issue.code === "too_big",
    bound: boundOf(issue),
    unit: unitOf(issue.origin, issue.message),
    expected: issue.expected,
    values: issue.values,
    format: issue.format,
  };
  return placed(segments, sentence(said, label, kind));
}

/** Each detail placed on its field (the path without indexes), in plain words. */
export function placeDetails(details: readonly DetailLike[], labels: FieldLabels = {}) {
  return details.map((detail) => placedAt(detail.field, detailText(detail, labels)));
}

/** Each zod issue placed on its field, in plain words. */
export function placeIssues(issues: readonly IssueLike[], labels: FieldLabels = {}) {
  return issues.map((issue) => placedAt(issue.path, issueText(issue, labels)));
}

/** `message` placed on the field at `path` (a detail's dotted field or an issue's path). */
function placedAt(
  path: string | readonly PropertyKey[] | undefined,
  message: string,
): PlacedProblem {
  const segments = segmentsOf(path);
  return { field: fieldKeyOf(segments), path: segments.join("."), message };
}

/** What `validityText` reads of a control the browser found invalid (an `<input>`'s own fields). */
export type ControlLike = {
  type: string;
  maxLength: number;
  minLength: number;
  min: string;
  max: string;
  validity: Partial<Record<keyof ValidityState, boolean>>;
};

/**
 * The plain sentence for a control the browser's own checks refused (`required`, `type="url"`,
 * `maxLength`, …), said as the API's detail would be, instead of the browser's bubble.
 */
export function validityText(control: ControlLike, field: FieldLabel): string {
  const { validity } = control;
  const range = (big: boolean, bound: number, unit: Said["unit"]): Said => ({
    code: "out_of_range",
    message: "",
    big,
    bound,
    unit,
  });
  const said: Said = validity.valueMissing
    ? { code: "required", message: "" }
    : validity.typeMismatch || validity.patternMismatch || validity.badInput
      ? { code: "invalid_format", message: "", format: control.type }
      : validity.tooLong
        ? range(true, control.maxLength, "characters")
        : validity.tooShort
          ? range(false, control.minLength, "characters")
          : validity.rangeOverflow
            ? range(true, Number(control.max), "number")
            : validity.rangeUnderflow
              ? range(false, Number(control.min), "number")
              : { code: "", message: "" };
  return sentence(said, field.label, field.kind);
}
