/**
 * Metadata and search (docs/api/launch.md#metadata, #listing-links): a link carries the customer's
 * string pairs (limits checked, every problem listed, never shown to the person); `GET
 * /v1/widget/launches` lists what the key may see, newest first, filtered and paged.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  call,
  expectJson,
  keyForAnotherAgent,
  launchBody,
  seedWorkspace,
  type Workspace,
} from "../helpers/api";
import { open } from "../helpers/chat";

afterEach(() => {
  vi.useRealTimers();
});

type Launch = { id: string; status: string; metadata: Record<string, string>; flowId: string };
type Page = { data: Launch[]; hasMore: boolean; nextCursor: string | null };
type ErrorBody = { error: { code: string; details: { field: string; code: string }[] } };

async function create(ws: Workspace, extra: Record<string, unknown> = {}, token = ws.widgetKey) {
  return expectJson<{ id: string; token: string }>(
    await call("POST", "/v1/widget/launches", { token, body: launchBody(ws, extra) }),
    201,
  );
}

const list = async (ws: Workspace, query = "", token = ws.widgetKey) =>
  expectJson<Page>(await call("GET", `/v1/widget/launches${query}`, { token }), 200);

describe("metadata", () => {
  it("is stored, returned by look-up and list, and never shown to the person", async () => {
    const ws = await seedWorkspace();
    const metadata = { orderId: "1042", crm: "cus_42" };
    const link = await create(ws, { metadata });
    const looked = await expectJson<Launch>(
      await call("GET", `/v1/widget/launches/${link.id}`, { token: ws.widgetKey }),
      200,
    );
    expect(looked.metadata).toEqual(metadata);
    expect((await list(ws)).data[0]?.metadata).toEqual(metadata);
    const session = await open(link.token);
    expect(JSON.stringify(session)).not.toContain("cus_42");
  });

  it("refuses shapes past the limits, listing every problem", async () => {
    const ws = await seedWorkspace();
    const tooMany = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, "v"]));
    const refused = await expectJson<ErrorBody>(
      await call("POST", "/v1/widget/launches", {
        token: ws.widgetKey,
        body: launchBody(ws, {
          metadata: { ...tooMany, ["x".repeat(41)]: "v", long: "v".repeat(501), n: 5 },
        }),
      }),
      400,
    );
    expect(refused.error.code).toBe("invalid_request");
    const fields = refused.error.details.map((detail) => detail.field).sort();
    expect(fields).toEqual(
      ["metadata", `metadata.${"x".repeat(41)}`, "metadata.long", "metadata.n"].sort(),
    );
    const proto = await expectJson<ErrorBody>(
      await call("POST", "/v1/widget/launches", {
        token: ws.widgetKey,
        body: JSON.stringify(launchBody(ws)).replace(/}$/, ',"metadata":{"__proto__":"x"}}'),
        headers: { "content-type": "application/json" },
      }),
      400,
    );
    expect(proto.error.details).toEqual([
      expect.objectContaining({ field: "metadata.__proto__", code: "reserved_key" }),
    ]);
  });
});

describe("GET /v1/widget/launches", () => {
  it("lists newest first, in pages, with filters by externalId, status, agent and time", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    const ws = await seedWorkspace();
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      vi.setSystemTime(start + i * 1000);
      const externalId = i % 2 === 0 ? "cus_42" : "cus_7";
      made.push((await create(ws, { participant: { externalId }, expiresInSeconds: 300 })).id);
    }
    const first = await list(ws, "?limit=2");
    expect(first.data.map((link) => link.id)).toEqual([made[4], made[3]]);
    expect(first.hasMore).toBe(true);
    const second = await list(ws, `?limit=2&cursor=${first.nextCursor}`);
    expect(second.data.map((link) => link.id)).toEqual([made[2], made[1]]);
    const third = await list(ws, `?limit=2&cursor=${second.nextCursor}`);
    expect(third.data.map((link) => link.id)).toEqual([made[0]]);
    expect([third.hasMore, third.nextCursor]).toEqual([false, null]);

    expect((await list(ws, "?externalId=cus_42")).data.map((l) => l.id)).toEqual([
      made[4],
      made[2],
      made[0],
    ]);
    const after = new Date(start + 1500).toISOString();
    const before = new Date(start + 3500).toISOString();
    expect(
      (await list(ws, `?createdAfter=${after}&createdBefore=${before}`)).data.map((l) => l.id),
    ).toEqual([made[3], made[2]]);
    // The same instant written with an offset.
    const shifted = new Date(start + 1500 + 3_600_000).toISOString().replace("Z", "+01:00");
    expect((await list(ws, `?createdAfter=${encodeURIComponent(shifted)}`)).data).toHaveLength(3);
    await call("DELETE", `/v1/widget/launches/${made[1]}`, { token: ws.widgetKey });
    expect((await list(ws, "?status=revoked")).data.map((l) => l.id)).toEqual([made[1]]);
    expect((await list(ws, `?flowId=${ws.agentId}&limit=100`)).data).toHaveLength(5);
    // Five minutes later the pending ones have expired.
    vi.setSystemTime(start + 10 * 60_000);
    expect((await list(ws, "?status=expired")).data).toHaveLength(4);
    expect((await list(ws, "?status=pending")).data).toHaveLength(0);
    // The ledger's alarm stores `expired` on some: every list reads them with the others.
    await env.DB.prepare("UPDATE links SET status = 'expired' WHERE id IN (?, ?)")
      .bind(made[0], made[2])
      .run();
    const expired = [made[4], made[3], made[2], made[0]];
    expect((await list(ws, "?status=expired")).data.map((l) => l.id)).toEqual(expired);
    expect((await list(ws, `?flowId=${ws.agentId}&status=expired`)).data.map((l) => l.id)).toEqual(
      expired,
    );
    expect((await list(ws, `?flowId=${ws.agentId}`)).data.map((l) => l.id)).toEqual(
      [...made].reverse(),
    );
    expect((await list(ws, "?limit=3")).data.map((l) => l.status)).toEqual([
      "expired",
      "expired",
      "expired",
    ]);
    expect((await list(ws, "?externalId=cus_42&status=expired")).data).toHaveLength(3);
  });

  it("shows a key limited to some agents only their links", async () => {
    const ws = await seedWorkspace();
    await create(ws);
    const limited = await keyForAnotherAgent(ws);
    expect((await list(ws, "", limited.key)).data).toEqual([]);
    const refused = await call("GET", `/v1/widget/launches?flowId=${ws.agentId}`, {
      token: limited.key,
    });
    expect(refused.status).toBe(403);
    expect((await list(ws)).data).toHaveLength(1);
  });

  it("refuses unknown query parameters and cursors it did not give out; counts toward the rate limit", async () => {
    const ws = await seedWorkspace();
    for (const query of [
      "?page=2",
      "?limit=101",
      "?status=open",
      "?cursor=bm9wZQ",
      "?createdAfter=yesterday",
    ]) {
      const body = await expectJson<ErrorBody>(
        await call("GET", `/v1/widget/launches${query}`, { token: ws.widgetKey }),
        400,
      );
      expect([query, body.error.code]).toEqual([query, "invalid_request"]);
    }
    const response = await call("GET", "/v1/widget/launches", { token: ws.widgetKey });
    expect(response.headers.get("ratelimit")).toMatch(/;r=114;/);
  });
});
