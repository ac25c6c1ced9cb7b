/**
 * Bodies for the schema fuzz (test/platform/fuzz.test.ts): known-good ones and ones generated from
 * the operation's schema, and bodies broken every way a client can break one: one defect against
 * the schema, not JSON, nested thousands deep, past every size limit, prototype keys, a wrong or
 * missing content type, an encoding. Webhook calls get JSON, forms and text.
 */
import fc from "fast-check";
import { brokenJson, deepText } from "./fuzz-defects";
import type { FuzzSeed, Mode, Operation, Parts } from "./fuzz-operations";

/** A webhook call's body: JSON, a form or text, with its content type. */
const webhookBody = fc.oneof(
  fc
    .jsonValue({ maxDepth: 3 })
    .map((v) => ({ body: JSON.stringify(v), headers: { "content-type": "application/json" } })),
  fc
    .dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 20 }), { maxKeys: 4 })
    .map((v) => ({
      body: new URLSearchParams(v).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    })),
  fc
    .string({ maxLength: 200 })
    .map((body) => ({ body, headers: { "content-type": "text/plain" } })),
);

/** The body: known-good or generated from its schema, or one of many ways to break it. */
export function bodyParts(op: Operation, seed: FuzzSeed, mode: Mode): fc.Arbitrary<Parts> | null {
  if (op.body === undefined) return mode === "broken" ? null : fc.constant({});
  const json: Record<string, string> = { "content-type": "application/json" };
  const typed = op.body.$ref !== undefined || op.body.type !== undefined;
  const known = seed.bodies[op.key];
  const asJson = (body: fc.Arbitrary<unknown>) =>
    body.map((v) => ({ body: JSON.stringify(v), headers: json }));
  if (mode === "first" && known) return asJson(known);
  const generated = typed ? asJson(seed.gen.valid(op.body)) : webhookBody;
  const good = known
    ? fc.oneof({ weight: 2, arbitrary: asJson(known) }, { weight: 3, arbitrary: generated })
    : generated;
  if (mode !== "broken") return good;
  const off = seed.gen.broken(op.body);
  const defect = (name: string, strict: boolean, body: fc.Arbitrary<string>, headers = json) =>
    body.map((text) => ({ body: text, headers, broken: `body: ${name}`, strict }));
  const defects: fc.Arbitrary<Parts>[] = [
    // An empty body is no body, which a route with an optional one takes (docs/api/README.md).
    defect("broken JSON", typed, op.bodyRequired ? brokenJson : brokenJson.filter((t) => t !== "")),
    defect("too deep", typed, deepText),
    defect("oversize", true, fc.constant(JSON.stringify({ pad: "p".repeat(1_100_000) }))),
    defect("large", false, fc.constant(JSON.stringify({ pad: "p".repeat(40_000) }))),
    defect(
      "any JSON",
      false,
      fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
    ),
    defect(
      "prototype keys",
      false,
      good.map((g) =>
        (g.body ?? "{}").replace(/^\{/, '{"__proto__":{"x":1},"constructor":{"prototype":1},'),
      ),
    ),
    good.map((g) => ({
      ...g,
      headers: { ...g.headers, "content-encoding": "gzip" },
      broken: "body: encoded",
      strict: true,
    })),
  ];
  if (typed) {
    defects.push(
      defect(
        "text/plain",
        true,
        good.map((g) => g.body ?? ""),
        { "content-type": "text/plain" },
      ),
      defect(
        "no content type",
        true,
        good.map((g) => g.body ?? ""),
        {},
      ),
    );
  }
  if (off)
    defects.push(
      off.map((b) => ({
        body: JSON.stringify(b.value),
        headers: json,
        broken: `body ${b.defect}`,
        strict: true,
      })),
    );
  return fc.oneof(...defects);
}
