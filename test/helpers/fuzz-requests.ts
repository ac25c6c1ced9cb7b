/**
 * Request generators for the schema fuzz test (test/platform/fuzz.test.ts): from an operation of
 * the generated OpenAPI document, fast-check arbitraries for its path parameters, query, headers
 * and body, mixing well-formed values (ids that exist, bodies of the right shape) with hostile ones
 * (unknown ids, over-long and odd strings, wrong types, prototype keys, nesting thousands deep,
 * broken JSON, wrong content types and encodings, credentials of the wrong kind or in the query).
 */
import fc from "fast-check";

/** One operation of the document. */
export type Operation = {
  method: string;
  path: string;
  security: string[];
  hasBody: boolean;
  statuses: Set<number>;
};

/** Credentials and ids of the seeded workspace the generators draw from. */
export type FuzzSeed = {
  widgetKey: string;
  ownerToken: string;
  operatorToken: string;
  /** Path parameter name → ids that exist (`id` covers links, agents, workflows, …). */
  ids: Record<string, string[]>;
  /** Well-formed bodies by `METHOD path`, to mutate. */
  bodies: Record<string, unknown[]>;
};

type Doc = {
  paths: Record<
    string,
    Record<
      string,
      { security?: Record<string, unknown>[]; requestBody?: unknown; responses: object }
    >
  >;
};

/** Every operation of the document. */
export function operationsOf(document: Doc): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      security: (operation.security ?? []).flatMap((entry) => Object.keys(entry)),
      hasBody: operation.requestBody !== undefined,
      statuses: new Set(Object.keys(operation.responses).map(Number)),
    })),
  );
}

const ODD_STRINGS = [
  "",
  "..",
  "%2e%2e",
  "a%2Fb",
  "🙂",
  "\u0000",
  "null",
  "__proto__",
  "constructor",
  "lnk_x",
  "a".repeat(65),
  "b".repeat(5_000),
  "<script>",
  "' OR 1=1 --",
];

const oddString = fc.oneof(fc.constantFrom(...ODD_STRINGS), fc.string({ maxLength: 80 }));

/** Nested arrays or objects, written as text so any depth costs no recursion here. */
const deepText = fc
  .tuple(fc.integer({ min: 60, max: 5_000 }), fc.boolean())
  .map(([depth, objects]) =>
    objects
      ? `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`
      : `${"[".repeat(depth)}${"]".repeat(depth)}`,
  );

/** A body text: well-formed, mutated, or hostile. */
function bodyText(seeded: unknown[]): fc.Arbitrary<string> {
  const good = seeded.length > 0 ? fc.constantFrom(...seeded) : fc.constant({});
  const mutated = fc
    .tuple(good, fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 3 }))
    .map(([body, key, value]) =>
      typeof body === "object" && body !== null ? { ...body, [key]: value } : value,
    );
  const dropped = good.map((body) =>
    typeof body === "object" && body !== null
      ? Object.fromEntries(Object.entries(body).slice(1))
      : body,
  );
  return fc.oneof(
    { weight: 3, arbitrary: good.map((body) => JSON.stringify(body)) },
    { weight: 3, arbitrary: mutated.map((body) => JSON.stringify(body)) },
    { weight: 1, arbitrary: dropped.map((body) => JSON.stringify(body)) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((body) => JSON.stringify(body)) },
    {
      weight: 1,
      arbitrary: good.map((body) =>
        JSON.stringify(body).replace(/^\{/, '{"__proto__":{"x":1},"constructor":{"prototype":1},'),
      ),
    },
    { weight: 1, arbitrary: deepText },
    {
      weight: 1,
      arbitrary: fc.constantFrom("", "{", '{"a":', "nul", "[1,]", '"\\ud800"', "1e999"),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  );
}

/** The Authorization header for an operation: right, missing, garbage or of another kind. */
function authorization(op: Operation, seed: FuzzSeed): fc.Arbitrary<string | undefined> {
  const right = op.security.includes("operatorToken")
    ? seed.operatorToken
    : op.security.includes("memberToken")
      ? seed.ownerToken
      : op.security.length > 0
        ? seed.widgetKey
        : undefined;
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant(right && `Bearer ${right}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        undefined,
        "Bearer",
        "Basic dXNlcjpwYXNz",
        `Bearer ${seed.widgetKey}x`,
        `Bearer ${seed.ownerToken}`,
        `Bearer ${seed.widgetKey}`,
        `Bearer ${seed.operatorToken}`,
      ),
    },
  );
}

/** A request for `op`: `[path with query, init]`, with fake-time friendly headers. */
export function requestFor(op: Operation, seed: FuzzSeed): fc.Arbitrary<[string, RequestInit]> {
  const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
  const param = (name: string) => {
    const known = seed.ids[name] ?? [];
    return known.length > 0
      ? fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom(...known) },
          { weight: 2, arbitrary: oddString },
        )
      : oddString;
  };
  const params = fc.tuple(...names.map(param));
  const query = fc.oneof(
    { weight: 4, arbitrary: fc.constant("") },
    {
      weight: 2,
      arbitrary: fc
        .dictionary(
          fc.constantFrom("limit", "startingAfter", "cursor", "foo", "key", "token", "x"),
          fc.oneof(oddString, fc.integer({ min: -5, max: 500 }).map(String)),
          { maxKeys: 3 },
        )
        .map((entries) => `?${new URLSearchParams(entries)}`),
    },
  );
  const contentType = fc.oneof(
    { weight: 6, arbitrary: fc.constant("application/json") },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        undefined,
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/json; charset=latin1",
      ),
    },
  );
  const extras = fc.oneof(
    { weight: 8, arbitrary: fc.constant<Record<string, string>>({}) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Record<string, string>>(
        { "content-encoding": "gzip" },
        { origin: "https://evil.example" },
        { "x-api-key": "wk_live_nonsense" },
        { "sec-fetch-site": "cross-site" },
      ),
    },
  );
  const body =
    op.hasBody || op.path.startsWith("/webhooks/")
      ? bodyText(seed.bodies[`${op.method} ${op.path}`] ?? [])
      : fc.constant(undefined);
  return fc
    .tuple(params, query, authorization(op, seed), contentType, extras, body)
    .map(([values, search, auth, type, extra, text]) => {
      let path = op.path;
      for (const [index, name] of names.entries()) {
        path = path.replace(`{${name}}`, encodeURIComponent(values[index] ?? ""));
      }
      const headers: Record<string, string> = { ...extra };
      if (auth) headers.authorization = auth;
      if (text !== undefined && type) headers["content-type"] = type;
      const sendsBody = text !== undefined && op.method !== "GET" && op.method !== "HEAD";
      return [
        `${path}${search}`,
        { method: op.method, headers, body: sendsBody ? text : undefined },
      ];
    });
}
