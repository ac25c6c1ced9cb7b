/**
 * Request generators for the schema fuzz test (test/platform/fuzz.test.ts). From each operation of
 * the served OpenAPI document: valid-shaped requests (the operation's own credential, path ids of
 * the seeded workspace's objects, query, headers and body honouring their schemas) and requests
 * with one part broken (a credential missing or of the wrong kind, an odd or over-long id, a query
 * value off its schema, a body with one defect, broken JSON, nesting thousands deep, an oversize
 * body, a wrong content type or encoding). A defect the document refuses is marked `strict`: its
 * answer may not be a success.
 */
import fc from "fast-check";
import { bodyParts } from "./fuzz-bodies";
import { oddString, textDefects } from "./fuzz-defects";
import type { Draft, FuzzSeed, Mode, Operation, Param, Part, Parts } from "./fuzz-operations";
import { DASHBOARD_HEADERS } from "./session";

const ok = <T extends Parts>(part: T) => fc.constant(part);

const textOf = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));
const SESSION_SAFE = new Set(["GET", "HEAD"]);

/** The operation's own credential: each accepted form of it. */
function credential(op: Operation, seed: FuzzSeed): fc.Arbitrary<Part> {
  if (op.security.includes("operatorToken"))
    return ok({ headers: { authorization: `Bearer ${seed.operatorToken}` } });
  if (op.security.includes("resultToken"))
    return ok({ headers: { authorization: `Bearer ${seed.resultToken}` } });
  if (op.security.includes("memberToken")) {
    const { token, cookie } = seed.member(op);
    const dashboard: Record<string, string> = SESSION_SAFE.has(op.method) ? {} : DASHBOARD_HEADERS;
    return fc.constantFrom<Part>(
      { headers: { authorization: `Bearer ${token}` } },
      { headers: { cookie, ...dashboard } },
    );
  }
  if (op.security.length > 0)
    return fc.constantFrom<Part>(
      { headers: { authorization: `Bearer ${seed.widgetKey}` } },
      { headers: { "x-api-key": seed.widgetKey } },
    );
  return ok({ headers: {} });
}

/** A credential that is missing, malformed, tampered with or of another kind (strict: refused). */
function badCredential(op: Operation, seed: FuzzSeed): fc.Arbitrary<Part> | null {
  if (op.security.length === 0) return null;
  const member = seed.member(op);
  const right = op.security.includes("operatorToken")
    ? seed.operatorToken
    : op.security.includes("resultToken")
      ? seed.resultToken
      : op.security.includes("memberToken")
        ? member.token
        : seed.widgetKey;
  const others = [seed.operatorToken, member.token, seed.widgetKey].filter((t) => t !== right);
  const bad: [string, Record<string, string>][] = [
    ["none", {}],
    ["malformed", { authorization: "Bearer" }],
    ["basic", { authorization: "Basic dXNlcjpwYXNz" }],
    ["tampered", { authorization: `Bearer ${right}x` }],
    ["truncated", { authorization: `Bearer ${right.slice(0, -1)}` }],
    ...others.map((other): [string, Record<string, string>] => [
      "another kind",
      { authorization: `Bearer ${other}` },
    ]),
  ];
  if (op.security.includes("widgetKeyHeader"))
    bad.push(["two keys", { authorization: `Bearer ${right}`, "x-api-key": `${right}x` }]);
  if (op.security.includes("memberToken")) {
    bad.push(["unknown session", { cookie: `${member.cookie}x` }]);
    if (!SESSION_SAFE.has(op.method))
      bad.push(["session without the dashboard's headers", { cookie: member.cookie }]);
  }
  return fc
    .constantFrom(...bad)
    .map(([kind, headers]) => ({ headers, broken: `credential: ${kind}`, strict: true }));
}

/** Path parameters: real objects' ids (or values from the schema), or one of them broken. */
function pathParts(op: Operation, seed: FuzzSeed, mode: Mode): fc.Arbitrary<Parts> | null {
  const params = op.params.filter((p) => p.in === "path");
  if (params.length === 0) return mode === "broken" ? null : ok({ values: {} });
  const generated = fc.record(
    Object.fromEntries(params.map((p) => [p.name, seed.gen.valid(p.schema, p.name).map(textOf)])),
  );
  const known = seed.pathValues(op);
  const good =
    known.length > 0 && mode === "first"
      ? fc.constantFrom(...known)
      : known.length > 0
        ? fc.oneof(
            { weight: 4, arbitrary: fc.constantFrom(...known) },
            { weight: 1, arbitrary: generated },
          )
        : generated;
  if (mode !== "broken") return good.map((values) => ({ values }));
  return fc.tuple(good, fc.constantFrom(...params)).chain(([values, param]) => {
    const off = textDefects(seed.gen.resolve(param.schema), false);
    const defects: fc.Arbitrary<Parts>[] = [
      oddString.map((odd) => ({
        values: { ...values, [param.name]: odd },
        broken: `path ${param.name}`,
      })),
    ];
    if (off.length > 0) {
      defects.push(
        fc.constantFrom(...off).map((b) => ({
          values: { ...values, [param.name]: b.value as string },
          broken: `path ${param.name}: ${b.defect}`,
          strict: true,
        })),
      );
    }
    return fc.oneof(...defects);
  });
}

/** The query: declared parameters from their schemas, or one value off its schema. */
function queryParts(op: Operation, seed: FuzzSeed, mode: Mode): fc.Arbitrary<Parts> | null {
  const all = op.params.filter((p) => p.in === "query");
  // A first call leaves out what it need not send.
  const params = mode === "first" ? all.filter((p) => p.required) : all;
  const known = seed.queryValues(op);
  const value = (p: Param) => {
    const generated = seed.gen.valid(p.schema, p.name).map(textOf);
    const real = known[p.name] ?? [];
    return real.length > 0
      ? fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(...real) },
          { weight: 1, arbitrary: generated },
        )
      : generated;
  };
  const record = fc.record(Object.fromEntries(params.map((p) => [p.name, value(p)])), {
    requiredKeys: params.filter((p) => p.required).map((p) => p.name),
  });
  const search = (entries: Record<string, string>) => {
    const text = new URLSearchParams(entries).toString();
    return text ? `?${text}` : "";
  };
  if (mode !== "broken") return record.map((entries) => ({ query: search(entries) }));
  const onV1 = op.path.startsWith("/v1/");
  const defects: fc.Arbitrary<Parts>[] = [
    fc.tuple(record, fc.constantFrom("fuzz", "page", "x")).map(([entries, name]) => ({
      query: search({ ...entries, [name]: "1" }),
      broken: `unknown query ${name}`,
    })),
    fc
      .tuple(record, fc.constantFrom("key", "api_key", "token", "access_token"))
      .map(([entries, name]) => ({
        query: search({ ...entries, [name]: "secret-value" }),
        broken: `credential in query ${name}`,
        strict: onV1,
      })),
  ];
  for (const param of params) {
    const off = textDefects(seed.gen.resolve(param.schema), true);
    if (off.length === 0) continue;
    defects.push(
      fc.tuple(record, fc.constantFrom(...off)).map(([entries, b]) => ({
        query: search({ ...entries, [param.name]: String(b.value) }),
        broken: `query ${param.name}: ${b.defect}`,
        strict: true,
      })),
    );
  }
  return fc.oneof(...defects);
}

/** Header parameters (an Idempotency-Key): absent, valid, or off their schema. */
function headerParts(op: Operation, seed: FuzzSeed, mode: Mode): fc.Arbitrary<Parts> | null {
  const all = op.params.filter((p) => p.in === "header");
  const params = mode === "first" ? all.filter((p) => p.required) : all;
  if (params.length === 0) return mode === "broken" ? null : ok({ headers: {} });
  const good = fc.record(
    Object.fromEntries(params.map((p) => [p.name, seed.gen.valid(p.schema, p.name).map(textOf)])),
    { requiredKeys: params.filter((p) => p.required).map((p) => p.name) },
  );
  if (mode !== "broken") return good.map((headers) => ({ headers }));
  const param = params[0] as Param;
  // Header values lose surrounding spaces on the way, so only defects that survive that.
  const off = textDefects(seed.gen.resolve(param.schema), true).filter(
    (b) => b.value === String(b.value).trim(),
  );
  if (off.length === 0) return null;
  return fc.constantFrom(...off).map((b) => ({
    headers: { [param.name]: b.value as string },
    broken: `header ${param.name}: ${b.defect}`,
    strict: true,
  }));
}

const KINDS = ["credential", "path", "query", "header", "body", "stray"] as const;

/** Headers a browser or a confused client adds (not a defect of the operation's own contract). */
const strayHeaders = fc.constantFrom<Record<string, string>>(
  { origin: "https://evil.example" },
  { "sec-fetch-site": "cross-site" },
  { "x-api-key": "wk_live_nonsense" },
);

/** A request for `op` of the given mode. */
export function requestFor(op: Operation, seed: FuzzSeed, mode: Mode): fc.Arbitrary<Draft> {
  const parts = (kind: (typeof KINDS)[number], as: Mode) =>
    kind === "credential"
      ? as === "broken"
        ? badCredential(op, seed)
        : credential(op, seed)
      : kind === "path"
        ? pathParts(op, seed, as)
        : kind === "query"
          ? queryParts(op, seed, as)
          : kind === "header"
            ? headerParts(op, seed, as)
            : kind === "body"
              ? bodyParts(op, seed, as)
              : as === "broken"
                ? strayHeaders.map((headers) => ({ headers, broken: "stray headers" }))
                : ok({});
  // Built once: a sample only picks which part is broken.
  const good = KINDS.map(
    (kind) => parts(kind, mode === "first" ? "first" : "valid") as fc.Arbitrary<Parts>,
  );
  const bad = KINDS.map((kind) => parts(kind, "broken"));
  const breakable = KINDS.flatMap((_, i) => (bad[i] ? [i] : []));
  const which = mode === "broken" ? fc.constantFrom(...breakable) : fc.constant(-1);
  return which.chain((target) =>
    fc
      .tuple(...KINDS.map((_, i) => (i === target ? bad[i] : good[i]) as fc.Arbitrary<Parts>))
      .map((all) => {
        const merged: Parts = {};
        const headers: Record<string, string> = {};
        for (const part of all) {
          Object.assign(headers, part.headers);
          Object.assign(merged, part);
        }
        const defect = all.find((part) => part.broken);
        let path = op.path;
        for (const [name, value] of Object.entries(merged.values ?? {}))
          path = path.replace(`{${name}}`, encodeURIComponent(value));
        return {
          op,
          broken: defect?.broken,
          strict: defect?.strict === true,
          path: `${path}${merged.query ?? ""}`,
          headers,
          body: op.method === "GET" || op.method === "HEAD" ? undefined : merged.body,
          live: defect ? undefined : seed.live(op),
        };
      }),
  );
}
