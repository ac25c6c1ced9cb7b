/**
 * The request log (docs/webhooks.md#request-log): every call to a workflow's webhook URLs is
 * recorded with its outcome, refusals included; credentials redacted; filtered and paged; one
 * entry read with its whole body; kept 7 days or the newest 1,000.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { GROUP_MAX, RequestLog } from "../../src/workflows/runner/request-log";
import type { LoggedRequest } from "../../src/workflows/runner/request-log-entry";
import { call, expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import { createWorkflow, githubSignature, hook, putSecret } from "../helpers/workflows";

type Entry = Omit<LoggedRequest, "receivedAt"> & { receivedAt: string };
type Page = { data: Entry[]; hasMore: boolean; nextCursor: string | null };

const requests = async (ws: Workspace, workflowId: string, query = "") =>
  expectJson<Page>(
    await call("GET", `/v1/manage/workflows/${workflowId}/requests${query}`, {
      token: ws.ownerToken,
    }),
    200,
  );

describe("the request log", () => {
  it("records every outcome with its status, execution and reason; credentials redacted", async () => {
    const ws = await seedWorkspace();
    await putSecret(ws, "GH", "gh-signing-secret");
    await putSecret(ws, "PLAIN", "secret-in-body");
    const flow = await createWorkflow(ws, {
      nodes: [
        {
          type: "webhook",
          rateLimitPerMinute: 4,
          verify: { preset: "github", secret: "{{secrets.GH}}" },
          dedupe: { key: "{{webhook_1.headers.x-github-delivery}}" },
        },
      ],
    });
    const url = flow.webhookUrls.webhook_1 as string;
    const body = JSON.stringify({ hello: "world", leaked: "secret-in-body" });
    const signed = {
      "content-type": "application/json",
      "x-hub-signature-256": await githubSignature("gh-signing-secret", body),
      "x-github-delivery": "d-1",
      authorization: "Bearer abc",
      cookie: "session=1",
      "x-api-key": "k-1",
      "x-plain": "kept",
    };
    const accepted = await hook(url, { headers: signed, body });
    const { executionId } = await expectJson<{ executionId: string }>(accepted, 200);
    expect((await hook(url, { headers: signed, body })).headers.get("x-deduplicated")).toBe("true");
    const forged = { ...signed, "x-hub-signature-256": "sha256=00" };
    const forgedAnswer = await hook(url, { headers: forged, body });
    expect(forgedAnswer.status).toBe(401);
    const forgedText = await forgedAnswer.text();
    expect((await hook(url, { method: "PUT", body })).status).toBe(405);
    expect((await hook(url, { headers: signed, body })).status).toBe(200);
    expect((await hook(url, { headers: signed, body })).status).toBe(429);

    const page = await requests(ws, flow.id);
    expect(page.hasMore).toBe(false);
    const [limited, third, refusedMethod, forgedEntry, repeated, first] = page.data;
    expect(page.data.map((entry) => [entry.outcome, entry.status])).toEqual([
      ["rate_limited", 429],
      ["deduplicated", 200],
      ["method_not_allowed", 405],
      ["invalid_signature", 401],
      ["deduplicated", 200],
      ["accepted", 200],
    ]);
    expect(first).toMatchObject({
      requestId: accepted.headers.get("x-request-id"),
      nodeKey: "webhook_1",
      method: "POST",
      executionId,
      size: new TextEncoder().encode(body).byteLength,
      reason: null,
    });
    expect(first?.latencyMs).toBeGreaterThanOrEqual(0);
    expect(Date.parse(first?.receivedAt ?? "")).toBeGreaterThan(Date.now() - 60_000);
    expect(repeated?.executionId).toBe(executionId);
    expect(third?.executionId).toBe(executionId);
    expect(forgedEntry).toMatchObject({ reason: "bad_signature", executionId: null });
    // A signature's reason stays in the log: the forger is not told (see request-words.test.ts).
    expect(forgedText).not.toContain("bad_signature");
    expect(refusedMethod?.method).toBe("PUT");
    expect(limited?.executionId).toBeNull();
    // Credentials and signatures redacted; other headers kept; secret values gone from the body.
    expect(first?.headers).toMatchObject({
      authorization: "[redacted]",
      cookie: "[redacted]",
      "x-api-key": "[redacted]",
      "x-hub-signature-256": "[redacted]",
      "x-plain": "kept",
      "x-github-delivery": "d-1",
    });
    expect(first?.bodyPreview).toBe(JSON.stringify({ hello: "world", leaked: "[redacted]" }));
    expect(JSON.stringify(page)).not.toContain("secret-in-body");
    expect(JSON.stringify(page)).not.toContain("Bearer abc");

    // Filtered by outcome.
    const onlyDeduplicated = await requests(ws, flow.id, "?outcome=deduplicated");
    expect(onlyDeduplicated.data.map((entry) => entry.id)).toEqual([third?.id, repeated?.id]);
  });

  it("records refused bodies, bad bodies and a stopped workflow's calls", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, { nodes: [{ type: "webhook" }] });
    const url = flow.webhookUrls.webhook_1 as string;
    const json = { "content-type": "application/json" };
    const unparsable = await hook(url, { headers: json, body: "{not json" });
    expect(unparsable.status).toBe(422);
    const huge = new Uint8Array(1_048_577).fill(97);
    const tooLarge = await hook(url, { headers: json, body: huge });
    expect(tooLarge.status).toBe(413);
    await call("POST", `/v1/manage/workflows/${flow.id}/stop`, { token: ws.ownerToken });
    expect((await hook(url, { body: { a: 1 } })).status).toBe(404);
    // An unknown node of the workflow is not one of its URLs: not recorded.
    expect((await hook(url.replace(/webhook_1$/, "nope"), { body: {} })).status).toBe(404);
    const { data } = await requests(ws, flow.id);
    expect(data.map((entry) => [entry.outcome, entry.status])).toEqual([
      ["stopped", 404],
      ["payload_too_large", 413],
      ["invalid_body", 422],
    ]);
    expect(data[1]).toMatchObject({ size: 1_048_577, bodyPreview: "" });
    expect(data[2]?.reason).toMatch(/not valid JSON/);
    expect(data[2]?.bodyPreview).toBe("{not json");
    // A refused body's reason is what its sender was answered (see request-words.test.ts).
    const told = async (answer: Response) =>
      ((await answer.json()) as { error: { message: string } }).error.message;
    expect(data[2]?.reason).toBe(await told(unparsable));
    expect(data[1]?.reason).toBe(await told(tooLarge));
  });

  it("pages with nextCursor and reads one call with its whole body", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, { nodes: [{ type: "webhook" }] });
    const url = flow.webhookUrls.webhook_1 as string;
    const long = JSON.stringify({ text: "é".repeat(3_000) });
    await hook(url, { body: long, headers: { "content-type": "application/json" } });
    const binary = new Uint8Array([0xff, 0xfe, 0x00, 0x01]);
    await hook(url, { body: binary, headers: { "content-type": "application/octet-stream" } });
    for (let i = 0; i < 3; i++) await hook(url, { body: { i } });

    const first = await requests(ws, flow.id, "?limit=2");
    expect(first.hasMore).toBe(true);
    const second = await requests(ws, flow.id, `?limit=2&cursor=${first.nextCursor}`);
    const third = await requests(ws, flow.id, `?limit=2&cursor=${second.nextCursor}`);
    expect(third).toMatchObject({ hasMore: false, nextCursor: null });
    const all = [...first.data, ...second.data, ...third.data];
    expect(new Set(all.map((entry) => entry.id)).size).toBe(5);
    const [binaryEntry, longEntry] = all.slice(3);

    // The preview is the first 2 KiB, never a character cut in half.
    expect(new TextEncoder().encode(longEntry?.bodyPreview).byteLength).toBeLessThanOrEqual(2_048);
    expect(longEntry?.bodyPreview).not.toContain("\uFFFD");
    const read = (id: string) =>
      call("GET", `/v1/manage/workflows/${flow.id}/requests/${id}`, { token: ws.ownerToken });
    expect(await expectJson(await read(longEntry?.id ?? ""), 200)).toMatchObject({
      body: long,
      bodyEncoding: "utf8",
    });
    expect(await expectJson(await read(binaryEntry?.id ?? ""), 200)).toMatchObject({
      body: "//4AAQ==",
      bodyEncoding: "base64",
    });
    // Unknown, malformed or another workflow's ids.
    const other = await createWorkflow(ws, { nodes: [{ type: "webhook" }] });
    const elsewhere = await call(
      "GET",
      `/v1/manage/workflows/${other.id}/requests/${longEntry?.id}`,
      {
        token: ws.ownerToken,
      },
    );
    expect(elsewhere.status).toBe(404);
    expect((await read("whr_nope")).status).toBe(400);
    const badCursor = await call("GET", `/v1/manage/workflows/${flow.id}/requests?cursor=abc`, {
      token: ws.ownerToken,
    });
    expect(badCursor.status).toBe(400);
  });

  it("redacts secret values wherever they are, and keeps floods to their preview", async () => {
    const ws = await seedWorkspace();
    const secret = "s3cr3t-value-0123456789";
    await putSecret(ws, "SHARED", secret);
    const flow = await createWorkflow(ws, { nodes: [{ type: "webhook", rateLimitPerMinute: 1 }] });
    const url = flow.webhookUrls.webhook_1 as string;
    // The secret straddles the preview's end: no part of it may show.
    const body = `${"a".repeat(2_040)}${secret}${"b".repeat(3_000)}`;
    const headers = { "x-shared": secret, "content-type": "text/plain" };
    expect((await hook(url, { headers, body })).status).toBe(200);
    expect((await hook(url, { headers, body })).status).toBe(429);
    const { data } = await requests(ws, flow.id);
    const [limited, accepted] = data;
    expect(accepted?.headers["x-shared"]).toBe("[redacted]");
    expect(accepted?.bodyPreview).not.toContain(secret.slice(0, 8));
    expect(accepted?.bodyPreview.startsWith("a".repeat(2_040))).toBe(true);
    const read = async (id: string) =>
      expectJson<{ body: string | null }>(
        await call("GET", `/v1/manage/workflows/${flow.id}/requests/${id}`, {
          token: ws.ownerToken,
        }),
        200,
      );
    const whole = await read(accepted?.id ?? "");
    expect(whole.body).toBe(body.replace(secret, "[redacted]"));
    // A rate-limited call keeps its preview, not its whole body.
    expect((await read(limited?.id ?? "")).body).toBe(limited?.bodyPreview);
  });

  it("keeps the newest 1,000 calls for at most 7 days", async () => {
    const id = env.WORKFLOW_RUNNER.idFromName("request-log-retention");
    await runInDurableObject(env.WORKFLOW_RUNNER.get(id), async (_instance, state) => {
      const log = new RequestLog(state.storage);
      const start = Date.now() - 8 * 24 * 3600 * 1000;
      const entry = (receivedAt: number) => ({
        requestId: "req_test",
        receivedAt,
        nodeKey: "webhook_1",
        method: "POST",
        status: 200,
        outcome: "accepted" as const,
        executionId: null,
        latencyMs: 1,
        size: 2,
        headers: {},
        reason: null,
        body: new TextEncoder().encode("{}"),
        keepBody: true,
      });
      for (let i = 0; i < 1_005; i++) log.record(entry(start + i), []);
      const page = await log.list(2_000);
      // All 1,005 are older than 7 days once they are read 8 days later, and deleted.
      expect(page.data).toHaveLength(0);
      expect((await state.storage.list({ prefix: "rq/" })).size).toBe(0);
      expect((await state.storage.list({ prefix: "rb/" })).size).toBe(0);
      const fresh = new RequestLog(state.storage);
      const base = Date.now() - 5_000;
      for (let i = 0; i < 1_010; i++) fresh.record(entry(base + i), []);
      const kept = await fresh.list(2_000);
      expect(kept.data).toHaveLength(1_000);
      expect(kept.data.at(-1)?.receivedAt).toBe(base + 10);
      // Values are deleted whole: the oldest one still holds the 10 calls past the newest 1,000,
      // which no read shows.
      const stored = await state.storage.list<unknown[]>({ prefix: "rq/" });
      const entries = [...stored.values()].reduce((sum, value) => sum + value.length, 0);
      expect(entries).toBeGreaterThanOrEqual(1_000);
      expect(entries).toBeLessThan(1_000 + GROUP_MAX);
    });
  });
});

describe("the request log's storage (docs/performance.md#counts-per-call)", () => {
  const call = (receivedAt: number, n: number) => ({
    requestId: `req_${n}`,
    receivedAt,
    nodeKey: "webhook_1",
    method: "POST",
    status: 200,
    outcome: (n % 3 === 0 ? "rate_limited" : "accepted") as "accepted" | "rate_limited",
    executionId: null,
    latencyMs: 1,
    size: 2,
    headers: {},
    reason: null,
    body: new TextEncoder().encode(`{"n":${n}}`),
    keepBody: false,
  });

  it("keeps the calls of one write in values of up to GROUP_MAX, and pages through them exactly", async () => {
    const id = env.WORKFLOW_RUNNER.idFromName("request-log-groups");
    await runInDurableObject(env.WORKFLOW_RUNNER.get(id), async (_instance, state) => {
      const log = new RequestLog(state.storage);
      const now = Date.now();
      // 100 calls in one batch, several in one millisecond.
      for (let n = 0; n < 100; n++) log.record(call(now - 1_000 + Math.floor(n / 3), n), []);
      const all = await log.list(1_000);
      expect(all.data.map((e) => e.requestId)).toEqual(
        Array.from({ length: 100 }, (_, n) => `req_${99 - n}`),
      );
      expect((await state.storage.list({ prefix: "rq/" })).size).toBe(Math.ceil(100 / GROUP_MAX));
      for (const [limit, outcome] of [
        [7, undefined],
        [5, "rate_limited"],
      ] as const) {
        const seen: string[] = [];
        let before: string | undefined;
        for (let pages = 0; pages < 40; pages++) {
          const page = await log.list(limit, { before, outcome });
          seen.push(...page.data.map((e) => e.requestId));
          if (!page.hasMore) break;
          before = page.data.at(-1)?.id;
        }
        const wanted = all.data.filter((e) => !outcome || e.outcome === outcome);
        expect(seen).toEqual(wanted.map((e) => e.requestId));
      }
      for (const entry of [all.data[0], all.data[50], all.data[99]]) {
        expect((await log.get(entry?.id ?? ""))?.requestId).toBe(entry?.requestId);
      }
      // Another last character (one in 62 ids already ends in "x").
      const id0 = all.data[0]?.id ?? "";
      expect(await log.get(`${id0.slice(0, -1)}${id0.endsWith("x") ? "y" : "x"}`)).toBeNull();
    });
  });

  it("reads entries stored one per value, as they were before grouping", async () => {
    const id = env.WORKFLOW_RUNNER.idFromName("request-log-ungrouped");
    await runInDurableObject(env.WORKFLOW_RUNNER.get(id), async (_instance, state) => {
      const writer = new RequestLog(state.storage);
      writer.record(call(Date.now() - 2_000, 1), []);
      const [old] = (await writer.list(1)).data;
      // The same entry as its own value, keyed by its own suffix.
      await state.storage.deleteAll();
      const suffix = old?.id.slice(4, 22);
      await state.storage.put(`rq/${suffix}`, { ...old, fullBody: false });
      const log = new RequestLog(state.storage);
      log.record(call(Date.now() - 1_000, 2), []);
      expect((await log.list(10)).data.map((e) => e.requestId)).toEqual(["req_2", "req_1"]);
      expect((await log.get(old?.id ?? ""))?.requestId).toBe("req_1");
    });
  });
});
