/**
 * fast-check arbitraries from the JSON Schemas of the OpenAPI document (test/platform/fuzz.test.ts):
 * values that honour a schema (`type`, `enum`, `pattern`, `format`, lengths, ranges, item counts,
 * `required`, `additionalProperties`, `oneOf`/`anyOf`) and values with exactly one defect against
 * it (a wrong type, a missing required field, an unknown field, a string past its length or off its
 * pattern, a number out of range), which the document says the service refuses.
 */
import fc from "fast-check";
import { scalarDefects, typesOf } from "./fuzz-defects";

/** The subset of JSON Schema the document's request schemas use. */
export type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  maxProperties?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  discriminator?: { propertyName: string };
};

/** A value with one defect, and what the defect is (for failure messages). */
export type Broken = { value: unknown; defect: string };

/**
 * Values to use instead of random ones, by property name (`flowId`, `url`) or by component
 * (`#WorkflowInput`): real ids of the seeded workspace, safe URLs, bodies whose parts must agree.
 * A hint gets the generator and the schema, so it can build on the schema's own arbitraries.
 */
export type Hints = Record<
  string,
  (gen: SchemaArbitraries, schema: Schema) => fc.Arbitrary<unknown>
>;

/** Keys of generated maps: a letter, then a few more (never `__proto__`). */
const MAP_KEY = fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,11}$/);
const EMAIL = fc
  .tuple(fc.stringMatching(/^[a-z0-9]{1,12}$/), fc.stringMatching(/^[a-z]{1,10}$/))
  .map(([local, domain]) => `${local}@${domain}.example`);
const DATE_TIME = fc
  .integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2035, 0, 1) })
  .map((ms) => new Date(ms).toISOString());

/** Arbitraries of the document's schemas; `components` resolves `$ref`s. */
export class SchemaArbitraries {
  constructor(
    private readonly components: Record<string, Schema>,
    private readonly hints: Hints = {},
  ) {}

  /** The schema a `$ref` names (or the schema itself). */
  resolve(schema: Schema): Schema {
    if (!schema.$ref) return schema;
    const name = schema.$ref.replace("#/components/schemas/", "");
    const target = this.components[name];
    if (!target) throw new Error(`no component ${schema.$ref}`);
    return this.resolve(target);
  }

  private hinted(schema: Schema, name: string | undefined): fc.Arbitrary<unknown> | undefined {
    const ref = schema.$ref?.replace("#/components/schemas/", "");
    const hint = (ref && this.hints[`#${ref}`]) || (name && this.hints[name]);
    return hint ? hint(this, schema) : undefined;
  }

  /** Values that honour `schema`; `name` is the property's, for hints. */
  valid(schema: Schema, name?: string): fc.Arbitrary<unknown> {
    return this.hinted(schema, name) ?? this.plain(schema);
  }

  /** Values that honour `schema`, without a hint for the schema itself (its parts keep theirs). */
  plain(input: Schema): fc.Arbitrary<unknown> {
    const schema = this.resolve(input);
    if (schema.enum) return fc.constantFrom(...schema.enum);
    const choices = schema.oneOf ?? schema.anyOf;
    if (choices) return fc.oneof(...choices.map((choice) => this.valid(choice)));
    const types = typesOf(schema);
    if (types.length === 0) return fc.jsonValue({ maxDepth: 2 });
    return fc.oneof(
      ...types.map((type) => ({
        weight: type === "null" ? 1 : 4,
        arbitrary: this.ofType(schema, type),
      })),
    );
  }

  private ofType(schema: Schema, type: string): fc.Arbitrary<unknown> {
    switch (type) {
      case "null":
        return fc.constant(null);
      case "boolean":
        return fc.boolean();
      case "integer":
        return fc.integer({ min: schema.minimum ?? -1_000, max: schema.maximum ?? 1_000_000 });
      case "number":
        return fc.double({
          min: schema.minimum ?? -1e6,
          max: schema.maximum ?? 1e6,
          noNaN: true,
          noDefaultInfinity: true,
        });
      case "string":
        return this.string(schema);
      case "array": {
        const items = this.valid(schema.items ?? {});
        const min = schema.minItems ?? 0;
        return fc.array(items, {
          minLength: min,
          maxLength: Math.min(schema.maxItems ?? 4, 4, min + 3),
        });
      }
      default:
        return this.object(schema);
    }
  }

  private string(schema: Schema): fc.Arbitrary<string> {
    const min = schema.minLength ?? 0;
    const max = schema.maxLength ?? 60;
    const fits = (s: string) => s.length >= min && s.length <= max;
    if (schema.format === "date-time") return DATE_TIME;
    if (schema.format === "email") return EMAIL.filter(fits);
    if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
    return fc.oneof(
      { weight: 5, arbitrary: fc.string({ minLength: min, maxLength: Math.min(max, 40) }) },
      // Full Unicode only where the length leaves room (lengths count UTF-16 units).
      {
        weight: 1,
        arbitrary: fc
          .string({ unit: "grapheme", minLength: min, maxLength: Math.min(max, 40) })
          .filter(fits),
      },
      // At the length limit (or 5,000 characters where the limit is higher).
      { weight: 1, arbitrary: fc.constant("x".repeat(Math.max(min, Math.min(max, 5_000)))) },
    );
  }

  private object(schema: Schema): fc.Arbitrary<unknown> {
    const properties = schema.properties ?? {};
    const names = Object.keys(properties);
    if (names.length > 0) {
      const shape = Object.fromEntries(
        names.map((name) => [name, this.valid(properties[name] as Schema, name)]),
      );
      return fc.record(shape, { requiredKeys: schema.required ?? [] });
    }
    const extra = schema.additionalProperties;
    const values = typeof extra === "object" ? this.valid(extra) : fc.jsonValue({ maxDepth: 2 });
    return fc.dictionary(MAP_KEY, values, { maxKeys: Math.min(schema.maxProperties ?? 3, 3) });
  }

  /** Values with exactly one defect against `schema`; null when nothing in it can be broken. */
  broken(input: Schema): fc.Arbitrary<Broken> | null {
    const schema = this.resolve(input);
    const options: fc.Arbitrary<Broken>[] = [];
    const wrongType = this.wrongType(schema);
    if (wrongType !== undefined)
      options.push(fc.constant({ value: wrongType, defect: "wrong type" }));
    const types = typesOf(schema);
    if (schema.enum) {
      options.push(...scalarDefects(schema).map((defect) => fc.constant(defect)));
    } else if (schema.oneOf && (schema.discriminator || schema.oneOf.length === 1)) {
      // Inside a choice only where the choice is certain: another branch cannot take the value.
      for (const choice of schema.oneOf) {
        const inner = this.broken(choice);
        if (inner) options.push(inner);
      }
    } else if (types.some((type) => ["string", "integer", "number"].includes(type))) {
      options.push(...scalarDefects(schema).map((defect) => fc.constant(defect)));
    } else if (types.includes("array")) options.push(...this.brokenArray(schema));
    else if (types.includes("object")) options.push(...this.brokenObject(input, schema));
    return options.length > 0 ? fc.oneof(...options) : null;
  }

  /** A value of a type the schema does not allow (none for a schema that allows any). */
  private wrongType(schema: Schema): unknown {
    const choices = this.choices(schema);
    const allowed = new Set(choices.flatMap(typesOf));
    if (choices.some((s) => typesOf(s).length === 0 && !s.enum)) return undefined;
    if (choices.every((s) => s.enum)) return allowed.has("number") ? "1" : 42;
    if (!allowed.has("number") && !allowed.has("integer")) return 42;
    return allowed.has("string") ? {} : "42";
  }

  /** The schemas a value may match: nested `oneOf`/`anyOf` flattened, `$ref`s resolved. */
  private choices(input: Schema): Schema[] {
    const schema = this.resolve(input);
    const nested = schema.oneOf ?? schema.anyOf;
    return nested ? nested.flatMap((choice) => this.choices(choice)) : [schema];
  }

  private brokenArray(schema: Schema): fc.Arbitrary<Broken>[] {
    const item = schema.items ?? {};
    const options: fc.Arbitrary<Broken>[] = [];
    if ((schema.minItems ?? 0) > 0)
      options.push(fc.constant({ value: [], defect: "too few items" }));
    if (schema.maxItems !== undefined && schema.maxItems <= 500) {
      const many = fc.array(this.valid(item), { minLength: 1, maxLength: 1 });
      options.push(
        many.map(([one]) => ({
          value: Array((schema.maxItems as number) + 1).fill(one),
          defect: "too many items",
        })),
      );
    }
    const brokenItem = this.broken(item);
    if (brokenItem) {
      options.push(
        fc.tuple(this.valid(schema), brokenItem).map(([list, bad]) => ({
          value: [...(list as unknown[]), bad.value],
          defect: `item: ${bad.defect}`,
        })),
      );
    }
    return options;
  }

  private brokenObject(input: Schema, schema: Schema): fc.Arbitrary<Broken>[] {
    const properties = schema.properties ?? {};
    // The rest of the value as a valid one would be (hints included), so only the defect is wrong.
    const whole = this.valid(input).map((value) => ({ ...(value as Record<string, unknown>) }));
    const options: fc.Arbitrary<Broken>[] = [];
    for (const name of schema.required ?? []) {
      options.push(
        whole.map(({ [name]: _, ...rest }) => ({ value: rest, defect: `missing ${name}` })),
      );
    }
    if (schema.additionalProperties === false) {
      options.push(
        whole.map((value) => ({ value: { ...value, fuzzUnknown: 1 }, defect: "unknown field" })),
      );
    }
    const extra = schema.additionalProperties;
    const badValue = typeof extra === "object" ? this.broken(extra) : null;
    if (badValue) {
      options.push(
        fc.tuple(whole, badValue).map(([value, b]) => ({
          value: { ...value, fuzzKey: b.value },
          defect: `map value: ${b.defect}`,
        })),
      );
    }
    for (const [name, property] of Object.entries(properties)) {
      const bad = this.broken(property);
      if (!bad) continue;
      options.push(
        fc.tuple(whole, bad).map(([value, b]) => ({
          value: { ...value, [name]: b.value },
          defect: `${name}: ${b.defect}`,
        })),
      );
    }
    return options;
  }
}
