/**
 * The operations of the served OpenAPI document as the schema fuzz (test/platform/fuzz.test.ts)
 * sees them, and the shapes its generators share: a generated request (`Draft`), the parts it is
 * made of, and what the generators draw from the seeded workspace (`FuzzSeed`).
 */
import type fc from "fast-check";
import type { Schema, SchemaArbitraries } from "./fuzz-schema";

/** One parameter of an operation. */
export type Param = { name: string; in: string; required: boolean; schema: Schema };

/** One operation of the document. */
export type Operation = {
  key: string;
  method: string;
  path: string;
  security: string[];
  params: Param[];
  /** The JSON body's schema (`{}` for any body), or undefined for none. */
  body: Schema | undefined;
  /** Whether the body must be sent: an empty one is none for a route that may go without. */
  bodyRequired: boolean;
  statuses: Set<number>;
};

/** A value the runner fills in just before sending: a fresh socket ticket, a passkey answer. */
export type Live = "ticket" | "passkey";

/** A generated request. `broken` names its defect (undefined: valid-shaped). */
export type Draft = {
  op: Operation;
  broken: string | undefined;
  strict: boolean;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
  live: Live | undefined;
};

/** What the generators draw from: the seeded workspace (test/helpers/fuzz-world.ts). */
export type FuzzSeed = {
  gen: SchemaArbitraries;
  widgetKey: string;
  operatorToken: string;
  /** The result handle's token, for `GET /webhooks/results/{executionId}`. */
  resultToken: string;
  /** The member calling `op` (its token, its session cookie `name=value`). */
  member(op: Operation): { token: string; cookie: string };
  /** Coherent path parameter values naming real objects, for `op`. */
  pathValues(op: Operation): Record<string, string>[];
  /** Query values that name something real (a list's cursor), by parameter, for `op`. */
  queryValues(op: Operation): Record<string, string[]>;
  /** Bodies known to be accepted, by operation key. */
  bodies: Record<string, fc.Arbitrary<unknown>>;
  live(op: Operation): Live | undefined;
};

/** The parts of the document `operationsOf` reads. */
export type OperationsDocument = {
  paths: Record<
    string,
    Record<
      string,
      {
        security?: Record<string, unknown>[];
        parameters?: { name: string; in: string; required?: boolean; schema?: Schema }[];
        requestBody?: { required?: boolean; content: Record<string, { schema?: Schema }> };
        responses: object;
      }
    >
  >;
};

/** Every operation of the document, with its parameters and body schema. */
export function operationsOf(document: OperationsDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      key: `${method.toUpperCase()} ${path}`,
      method: method.toUpperCase(),
      path,
      security: (operation.security ?? []).flatMap((entry) => Object.keys(entry)),
      params: (operation.parameters ?? []).map((p) => ({
        name: p.name,
        in: p.in,
        required: p.required === true,
        schema: p.schema ?? {},
      })),
      body: operation.requestBody?.content["application/json"]?.schema,
      bodyRequired: operation.requestBody?.required === true,
      statuses: new Set(Object.keys(operation.responses).map(Number)),
    })),
  );
}

/** Part of a request: headers it adds, and the defect it carries (`strict`: one the document refuses). */
export type Part = { broken?: string; strict?: boolean; headers?: Record<string, string> };
/** Any part: path values, query text, body text besides headers. */
export type Parts = Part & { values?: Record<string, string>; query?: string; body?: string };

/**
 * What a generated request is: `first`, valid-shaped with real ids and known-good bodies only
 * (each operation's first calls, which must succeed); `valid`, valid-shaped with values the schemas
 * allow; `broken`, with one part broken.
 */
export type Mode = "first" | "valid" | "broken";
