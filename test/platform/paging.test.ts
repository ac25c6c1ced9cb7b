/**
 * The one list shape (docs/api/README.md#lists-and-paging): every list operation the served
 * OpenAPI document lists takes the shared `limit` and `cursor` and answers the shared `Page`, so a
 * new list without them fails here; paging gives every item once, in order; an unknown query
 * parameter and a cursor not given out are 400 in the one envelope.
 */
import { describe, expect, it } from "vitest";
import { call, expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import { createWorkflow, hook } from "../helpers/workflows";

type Schema = {
  $ref?: string;
  allOf?: Schema[];
  type?: string | string[];
  properties?: Record<string, Schema>;
};
type Operation = {
  parameters?: { $ref?: string; name?: string; in?: string }[];
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
};
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; parameters?: Record<string, unknown> };
};

type Envelope = {
  error: { code: string; details: { field?: string; code?: string }[]; requestId: string };
};
type Page<T> = { data: T[]; hasMore: boolean; nextCursor: string | null };

const documentOf = async () => expectJson<Document>(await call("GET", "/openapi.json"), 200);

/** The schema `$ref` names, or the schema itself. */
function resolve(document: Document, schema: Schema): Schema {
  const name = schema.$ref?.replace("#/components/schemas/", "");
  return name === undefined ? schema : (document.components.schemas[name] ?? {});
}

/** Whether `schema` (through refs and allOf) has a top-level `data` that is an array. */
function hasDataArray(document: Document, schema: Schema, depth = 0): boolean {
  const resolved = resolve(document, schema);
  if (depth > 4) return false;
  if (resolved.allOf?.some((part) => hasDataArray(document, part, depth + 1))) return true;
  const data = resolved.properties?.data;
  return data !== undefined && resolve(document, data).type === "array";
}

/**
 * The GETs on a path not ending in an id that answer one thing, not a collection: any other such
 * GET is taken for a list, so a new collection must take the list shape or be named here.
 */
const SINGLE = new Set([
  "/v1/manage/me",
  "/v1/manage/usage",
  "/v1/manage/metrics",
  "/v1/manage/workspace",
  "/v1/chat/sessions/{sessionId}/socket",
  "/v1/chat/channels/{channelId}/embedding",
]);

/** The GET operations answering a collection: a `data` array, or a path naming no one thing. */
function listOperations(document: Document): [string, Operation][] {
  const out: [string, Operation][] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    const get = item.get;
    if (!get) continue;
    const schema = get.responses["200"]?.content?.["application/json"]?.schema;
    const collection = path.startsWith("/v1/") && !path.endsWith("}") && !SINGLE.has(path);
    if (collection || (schema && hasDataArray(document, schema))) out.push([path, get]);
  }
  return out;
}

/** Every page of `path` (with its own `?` query or none), `limit` at a time. */
async function everyPage<T>(path: string, token: string, limit: number) {
  const items: T[] = [];
  let cursor: string | null = null;
  for (let pages = 1; pages <= 50; pages++) {
    const joiner = path.includes("?") ? "&" : "?";
    const url = `${path}${joiner}limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`;
    const page: Page<T> = await expectJson(await call("GET", url, { token }), 200);
    expect(page.data.length).toBeLessThanOrEqual(limit);
    expect(page.nextCursor === null).toBe(!page.hasMore);
    items.push(...page.data);
    if (!page.hasMore) return { items, pages };
    cursor = page.nextCursor;
  }
  throw new Error(`${path}: more than 50 pages`);
}

async function refused(response: Response, field: string) {
  const body = await expectJson<Envelope>(response, 400);
  expect(body.error.code).toBe("invalid_request");
  expect(body.error.requestId).toMatch(/^req_/);
  expect(body.error.details.map((detail) => detail.field)).toContain(field);
}

describe("the list shape in the OpenAPI document", () => {
  it("every list operation takes the shared limit and cursor and answers the shared Page", async () => {
    const document = await documentOf();
    expect(Object.keys(document.components.parameters ?? {})).toEqual(
      expect.arrayContaining(["Limit", "Cursor"]),
    );
    const lists = listOperations(document);
    const faults: string[] = [];
    for (const [path, operation] of lists) {
      const refs = (operation.parameters ?? []).map((parameter) => parameter.$ref);
      if (!refs.includes("#/components/parameters/Limit")) faults.push(`${path}: no Limit`);
      if (!refs.includes("#/components/parameters/Cursor")) faults.push(`${path}: no Cursor`);
      const inline = (operation.parameters ?? []).filter((p) =>
        ["limit", "cursor"].includes(p.name ?? ""),
      );
      if (inline.length > 0) faults.push(`${path}: its own limit or cursor`);
      const schema = operation.responses["200"]?.content?.["application/json"]?.schema ?? {};
      const page = resolve(document, schema);
      if (!page.allOf?.some((part) => part.$ref === "#/components/schemas/Page")) {
        faults.push(`${path}: answer is not a Page`);
      }
      const own = page.allOf?.find((part) => part.$ref === undefined);
      if (Object.keys(own?.properties ?? {}).join() !== "data") {
        faults.push(`${path}: a Page with more than data`);
      }
    }
    expect(faults).toEqual([]);
    // The lists of issue 35, by path; a list added later is walked above as well.
    expect(lists.map(([path]) => path)).toEqual(
      expect.arrayContaining([
        "/v1/widget/launches",
        "/v1/manage/links",
        "/v1/manage/members",
        "/v1/manage/widget-keys",
        "/v1/manage/agents",
        "/v1/manage/agents/{id}/channels",
        "/v1/manage/secrets",
        "/v1/manage/workflows",
        "/v1/manage/workflows/{id}/executions",
        "/v1/manage/workflows/{id}/requests",
        "/v1/manage/workflows/{id}/nodes/{key}/samples",
        "/v1/manage/passkeys",
        "/v1/manage/event-endpoints",
        "/v1/manage/event-endpoints/{id}/deliveries",
        "/v1/manage/audit-log",
        "/v1/operator/audit-log",
      ]),
    );
    const page = document.components.schemas.Page as Schema & { required?: string[] };
    expect(Object.keys(page.properties ?? {}).sort()).toEqual(["hasMore", "nextCursor"]);
  });
});

describe("paging", () => {
  async function agents(ws: Workspace, count: number): Promise<string[]> {
    const ids = [ws.agentId];
    for (let i = 0; i < count; i++) {
      const created = await expectJson<{ id: string }>(
        await call("POST", "/v1/manage/agents", {
          token: ws.ownerToken,
          body: { name: `Agent ${i}`, mode: "initiator", greeting: "Hi" },
        }),
        201,
      );
      ids.push(created.id);
    }
    return ids;
  }

  it("gives every agent once, oldest first, through pages smaller than the list", async () => {
    const ws = await seedWorkspace();
    const ids = await agents(ws, 6);
    const whole = await expectJson<Page<{ id: string; createdAt: string }>>(
      await call("GET", "/v1/manage/agents", { token: ws.ownerToken }),
      200,
    );
    expect(whole).toMatchObject({ hasMore: false, nextCursor: null });
    const { items, pages } = await everyPage<{ id: string; createdAt: string }>(
      "/v1/manage/agents",
      ws.ownerToken,
      2,
    );
    expect(pages).toBe(4);
    expect(items.map((agent) => agent.id)).toEqual(whole.data.map((agent) => agent.id));
    expect([...items.map((agent) => agent.id)].sort()).toEqual([...ids].sort());
    const times = items.map((agent) => agent.createdAt);
    expect(times).toEqual([...times].sort());
  });

  it("gives every widget key once through pages, and the default page is 20", async () => {
    const ws = await seedWorkspace();
    const ids = [ws.widgetKeyId];
    for (let i = 0; i < 21; i++) {
      const key = await expectJson<{ id: string }>(
        await call("POST", "/v1/manage/widget-keys", {
          token: ws.ownerToken,
          body: { name: `k${i}` },
        }),
        201,
      );
      ids.push(key.id);
    }
    const first = await expectJson<Page<{ id: string }>>(
      await call("GET", "/v1/manage/widget-keys", { token: ws.ownerToken }),
      200,
    );
    expect(first.data).toHaveLength(20);
    expect(first.hasMore).toBe(true);
    const { items } = await everyPage<{ id: string }>("/v1/manage/widget-keys", ws.ownerToken, 5);
    expect(items.map((key) => key.id).sort()).toEqual([...ids].sort());
    expect(new Set(items.map((key) => key.id)).size).toBe(ids.length);
  });

  it("gives every execution once, newest first, through pages smaller than the list", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, { nodes: [{ type: "webhook" }] });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const sent = await hook(flow.webhookUrls.webhook_1 as string, { body: { i } });
      ids.push((await expectJson<{ executionId: string }>(sent, 200)).executionId);
    }
    const { items, pages } = await everyPage<{ id: string }>(
      `/v1/manage/workflows/${flow.id}/executions`,
      ws.ownerToken,
      2,
    );
    expect(pages).toBe(3);
    expect(items.map((execution) => execution.id)).toEqual([...ids].reverse());
  });
});

describe("refusals", () => {
  it("an unknown query parameter is 400 naming query.<name>, on lists and on other operations", async () => {
    const ws = await seedWorkspace();
    for (const path of [
      "/v1/manage/agents?startingAfter=agt_x",
      "/v1/manage/widget-keys?page=2",
      `/v1/manage/agents/${ws.agentId}/channels?offset=1`,
      `/v1/manage/agents/${ws.agentId}?page=2`,
      "/v1/manage/audit-log?page=2",
    ]) {
      const name = new URL(path, "https://x").searchParams.keys().next().value as string;
      await refused(await call("GET", path, { token: ws.ownerToken }), `query.${name}`);
    }
    await refused(
      await call("GET", "/v1/widget/launches?page=2", { token: ws.widgetKey }),
      "query.page",
    );
    const patched = await call("PATCH", `/v1/manage/agents/${ws.agentId}?dryRun=1`, {
      token: ws.ownerToken,
      body: { name: "Renamed" },
    });
    await refused(patched, "query.dryRun");
  });

  it("a cursor not given out, or given out by another list, is 400 (query.cursor)", async () => {
    const ws = await seedWorkspace();
    await agents(ws, 2);
    const page = await expectJson<Page<unknown>>(
      await call("GET", "/v1/manage/agents?limit=1", { token: ws.ownerToken }),
      200,
    );
    expect(page.nextCursor).toEqual(expect.any(String));
    for (const path of [
      "/v1/manage/agents?cursor=bm9wZQ",
      "/v1/manage/agents?cursor=%25%25%25",
      `/v1/manage/widget-keys?cursor=${page.nextCursor}`,
      `/v1/manage/secrets?cursor=${page.nextCursor}`,
      `/v1/manage/event-endpoints?cursor=${page.nextCursor}`,
      "/v1/manage/agents?limit=101",
    ]) {
      const field = path.includes("limit") ? "query.limit" : "query.cursor";
      await refused(await call("GET", path, { token: ws.ownerToken }), field);
    }
  });

  async function agents(ws: Workspace, count: number) {
    for (let i = 0; i < count; i++) {
      await call("POST", "/v1/manage/agents", {
        token: ws.ownerToken,
        body: { name: `Agent ${i}`, mode: "initiator", greeting: "Hi" },
      });
    }
  }
});
