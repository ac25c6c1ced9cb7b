/**
 * What the schema fuzz (test/platform/fuzz.test.ts) puts where the document's schemas alone give
 * values no handler gets far with: real ids of the seeded workspace, launch parameters of its
 * agent, parameter definitions whose options have their type, whole workflow definitions whose
 * connections name their nodes, and URLs that only reach the local echo server (no generated
 * request sends traffic off the machine).
 */
import fc from "fast-check";
import { DEMO_PARAMETERS } from "./api";
import type { Hints, Schema, SchemaArbitraries } from "./fuzz-schema";

/** Ids and values of the seeded workspace that bodies may name. */
export type Pools = {
  agentId: string;
  otherAgentId: string;
  channelId: string;
  memberIds: string[];
  chatTokens: string[];
  echoUrl: string;
  secretName: string;
  /** The generation's "now" (epoch ms), for times that must be in the future. */
  now: number;
};

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/** Mostly `real`, sometimes what the schema alone gives. */
const mostly = (real: fc.Arbitrary<unknown>, gen: SchemaArbitraries, schema: Schema) =>
  fc.oneof({ weight: 5, arbitrary: real }, { weight: 1, arbitrary: gen.plain(schema) });

const optionsOf: Record<string, fc.Arbitrary<unknown>> = {
  string: fc.string({ maxLength: 10 }),
  number: fc.double({ min: -100, max: 100, noNaN: true, noDefaultInfinity: true }),
  integer: fc.integer({ min: -100, max: 100 }),
  boolean: fc.boolean(),
};

/** Values for the seeded agent's Initial Parameters (DEMO_PARAMETERS), of their types. */
const demoValues = fc.record(
  Object.fromEntries(
    DEMO_PARAMETERS.map((p) => [
      p.name,
      "options" in p ? fc.constantFrom(...p.options) : (optionsOf[p.type] as fc.Arbitrary<unknown>),
    ]),
  ),
  { requiredKeys: DEMO_PARAMETERS.filter((p) => "required" in p && p.required).map((p) => p.name) },
);

/** Parameter definitions with unique names and options of their own type. */
function definitions(gen: SchemaArbitraries) {
  const one = gen.plain(ref("ParameterDefinition")).chain((raw) => {
    const definition = raw as { name: string; type: string; options?: unknown[] };
    if (definition.options === undefined) return fc.constant(definition);
    const options =
      definition.type === "boolean"
        ? fc.subarray([true, false], { minLength: 1 })
        : fc.uniqueArray(optionsOf[definition.type] as fc.Arbitrary<unknown>, {
            minLength: 1,
            maxLength: 4,
            selector: (v) => JSON.stringify(v),
          });
    return options.map((values) => ({ ...definition, options: values }));
  });
  return fc
    .array(one, { maxLength: 4 })
    .map((list) => list.map((d, i) => ({ ...d, name: `${d.name.slice(0, 58)}_${i}` })));
}

/** A workflow: a trigger, up to four nodes after it in a chain, their keys unique. */
function workflowInput(gen: SchemaArbitraries, schema: Schema) {
  const trigger = fc.oneof(
    { weight: 3, arbitrary: gen.valid(ref("WebhookNode")) },
    { weight: 1, arbitrary: gen.valid(ref("ConversationEventNode")) },
  );
  const action = fc.oneof(
    ...["SetNode", "ConditionNode", "HttpRequestNode", "WaitNode", "RespondNode"].map((name) =>
      gen.valid(ref(name)),
    ),
  );
  // Name, slug and concurrency from the schema; the nodes and connections are built below.
  const {
    nodes: _nodes,
    connections: _connections,
    ...rest
  } = gen.resolve(schema).properties ?? {};
  const base = gen.plain({ ...gen.resolve(schema), properties: rest, required: ["name", "slug"] });
  return fc
    .tuple(base, trigger, fc.array(action, { maxLength: 4 }))
    .map(([named, first, others]) => {
      const nodes = [first, ...others].map((raw, i) => {
        const node = { ...(raw as Record<string, unknown>) };
        node.key = `${String(node.key ?? node.type).slice(0, 58)}_${i}`;
        // A dedupe key is a template over the node's own call.
        if (node.dedupe)
          node.dedupe = { ...(node.dedupe as object), key: `{{${node.key}.headers.x-id}}` };
        return node;
      });
      const head = nodes[0] as Record<string, unknown>;
      const responds = nodes.some((node) => node.type === "respond");
      if (head.type === "webhook") {
        if (responds) head.responseMode = "responseNode";
        if ((head.responseMode ?? "immediate") !== "immediate") {
          for (const reply of ["responseStatus", "responseHeaders", "responseBody"])
            delete head[reply];
        }
      }
      const kept = head.type === "webhook" ? nodes : nodes.filter((n) => n.type !== "respond");
      const connections = kept.slice(1).map((node, i) => {
        const from = kept[i] as Record<string, unknown>;
        const edge = { from: from.key, to: node.key };
        return from.type === "condition" ? { ...edge, branch: "true" } : edge;
      });
      return { ...(named as object), nodes: kept, connections };
    });
}

/** The hints for `pools`. */
export function fuzzHints(pools: Pools): Hints {
  const agents = fc.constantFrom(pools.agentId, pools.otherAgentId);
  const headerMap = fc.dictionary(
    fc.stringMatching(/^x-fuzz-[a-z]{1,6}$/),
    fc.string({ maxLength: 30 }),
    { maxKeys: 3 },
  );
  return {
    flowId: (gen, schema) => mostly(fc.constant(pools.agentId), gen, schema),
    flowIds: (gen, schema) =>
      mostly(fc.subarray([pools.agentId, pools.otherAgentId], { minLength: 1 }), gen, schema),
    channelId: (gen, schema) => mostly(fc.constant(pools.channelId), gen, schema),
    agentId: (gen, schema) => mostly(agents, gen, schema),
    memberId: (gen, schema) => mostly(fc.constantFrom(...pools.memberIds), gen, schema),
    // The audit log's filter: the members who made the seeding's changes, or the operator.
    actorId: (gen, schema) => mostly(fc.constantFrom(...pools.memberIds, "operator"), gen, schema),
    token: (gen, schema) => mostly(fc.constantFrom(...pools.chatTokens), gen, schema),
    // Only the echo server: a generated endpoint or node may really be called, and no request
    // of the fuzz may leave the machine.
    url: () => fc.constantFrom(`${pools.echoUrl}/echo/fuzz`, `${pools.echoUrl}/status/404`),
    secret: () => fc.constant(`{{secrets.${pools.secretName}}}`),
    header: (gen, schema) => mostly(fc.stringMatching(/^x-[a-z0-9-]{1,20}$/), gen, schema),
    headers: (gen, schema) => mostly(headerMap, gen, schema),
    responseHeaders: (gen, schema) => mostly(headerMap, gen, schema),
    expiresAt: () =>
      fc
        .integer({ min: pools.now + 3_600_000, max: pools.now + 90 * 86_400_000 })
        .map((ms) => new Date(ms).toISOString()),
    parameters: (gen, schema) =>
      gen.resolve(schema).type === "array" ? definitions(gen) : mostly(demoValues, gen, schema),
    "#WorkflowInput": workflowInput,
  };
}

/**
 * Bodies known to be accepted, by operation key: every operation's first calls send one (names,
 * emails and slugs unique per call), later calls mix them with generated ones.
 */
export function knownBodies(
  pools: Pools,
  seeded: { linkToken: string; editedSlug: string; testRunOf: string; ratingTokens: string[] },
): Record<string, fc.Arbitrary<unknown>> {
  const unique = fc.uuid().map((u) => u.slice(0, 8));
  const since = "2020-01-01T00:00:00.000Z";
  const flow = { name: "F", nodes: [{ type: "webhook" }], connections: [] };
  const one = (value: unknown) => fc.constant(value);
  return {
    "POST /v1/widget/launches": one({
      flowId: pools.agentId,
      channelId: pools.channelId,
      parameters: { plan: "basic" },
    }),
    "POST /v1/operator/workspaces": unique.map((u) => ({
      name: `Fuzz ${u}`,
      owner: { email: `o-${u}@x.example`, name: "O" },
    })),
    "POST /v1/manage/members": unique.map((u) => ({
      email: `m-${u}@x.example`,
      name: "M",
      role: "member",
    })),
    "PATCH /v1/manage/members/{id}": fc.constantFrom({ role: "admin" }, { role: "member" }),
    "POST /v1/manage/widget-keys": one({ name: "k", flowIds: [pools.agentId] }),
    "POST /v1/manage/agents": one({ name: "A", mode: "initiator", greeting: "Hi" }),
    "PATCH /v1/manage/agents/{id}": one({ name: "B", instructions: "Be brief." }),
    "POST /v1/manage/agents/{id}/channels": one({ type: "widget", name: "c" }),
    "PATCH /v1/manage/agents/{id}/channels/{channelId}": one({
      allowedOrigins: ["https://shop.example.com"],
    }),
    "POST /v1/widget/erasures": one({ externalId: "fuzz-nobody" }),
    "POST /v1/manage/erasures": one({ externalId: "fuzz-nobody" }),
    "POST /v1/manage/agents/{id}/channels/{channelId}/preview-link": one({
      parameters: { plan: "basic" },
    }),
    "PUT /v1/manage/secrets/{name}": one({ value: "v" }),
    "POST /v1/manage/workflows": unique.map((u) => ({ ...flow, slug: `fuzz-${u}` })),
    "PUT /v1/manage/workflows/{id}": one({ ...flow, slug: seeded.editedSlug }),
    "POST /v1/manage/workflows/{id}/executions/{executionId}/replay": one({}),
    "POST /v1/manage/workflows/{id}/executions/replay": one({ status: "failed", since }),
    "POST /v1/manage/workflows/{id}/nodes/{key}/capture": one({ count: 1 }),
    "POST /v1/manage/workflows/{id}/nodes/{key}/test-runs": one({ executionId: seeded.testRunOf }),
    "POST /v1/manage/sign-in-links": one({}),
    "POST /v1/manage/passkeys": one({ name: "Fuzz key" }),
    "POST /v1/manage/event-endpoints": one({ url: `${pools.echoUrl}/echo/fuzz` }),
    "PATCH /v1/manage/event-endpoints/{id}": one({ description: "fuzz" }),
    "POST /v1/manage/event-endpoints/{id}/recover": one({ since }),
    "POST /webhooks/{workspace}/{workflow}/{node}": one({ orderId: 1042 }),
    "POST /webhook-test/{workspace}/{workflow}/{node}": one({ orderId: 1 }),
    "POST /v1/chat/sessions": one({ token: seeded.linkToken }),
    // Each ended conversation takes one rating; later ones are 409 already_rated (documented).
    "POST /v1/chat/rating": fc
      .constantFrom(...seeded.ratingTokens)
      .map((token) => ({ token, score: 4, comment: "fuzz" })),
  };
}
