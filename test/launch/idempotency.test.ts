/**
 * Idempotent creates (docs/api/launch.md#idempotent-requests): the same `Idempotency-Key` and body
 * within 24 h replay the first answer, token included, without a second link; another body gets 422,
 * a key still in flight 409 with Retry-After; client errors are not remembered; 20 concurrent
 * identical calls make one link; the stored answer never holds the token in plaintext.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { linkLedger } from "../../src/launch/ledger/client";
import {
  call,
  createWidgetKey,
  expectJson,
  launchBody,
  seedWorkspace,
  type Workspace,
} from "../helpers/api";
import { linksInD1 } from "../helpers/seed-links";

afterEach(() => {
  vi.useRealTimers();
});

type Created = { id: string; token: string; url: string; embedHtml: string; expiresAt: string };

function create(ws: Workspace, key: string, body: unknown = launchBody(ws), token = ws.widgetKey) {
  return call("POST", "/v1/widget/launches", {
    token,
    body,
    headers: { "idempotency-key": key },
  });
}

const remaining = (response: Response) =>
  Number(/;r=(\d+);/.exec(response.headers.get("ratelimit") ?? "")?.[1]);

describe("Idempotency-Key on POST /v1/widget/launches", () => {
  it("replays the first answer, token included, without a second link or pending slot", async () => {
    const ws = await seedWorkspace();
    const first = await create(ws, "order-1042");
    const created = await expectJson<Created>(first, 201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();

    // Same body, keys in another order and other spacing: the same request.
    const body = launchBody(ws) as Record<string, unknown>;
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(body).reverse()), null, 2);
    const again = await call("POST", "/v1/widget/launches", {
      token: ws.widgetKey,
      body: reordered,
      headers: { "idempotency-key": "order-1042", "content-type": "application/json" },
    });
    expect(await expectJson<Created>(again, 201)).toEqual(created);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    // The replay still counts toward the rate limit; the link count and pending slots do not move.
    expect(remaining(again)).toBe(remaining(first) - 1);
    expect(await linksInD1(ws.workspaceId)).toBe(1);
    expect((await linkLedger(env, ws.workspaceId).usage(ws.workspaceId)).pendingLinks).toBe(1);
  });

  it("refuses the key with another body: 422 idempotency_key_reused", async () => {
    const ws = await seedWorkspace();
    await expectJson(await create(ws, "k-1"), 201);
    const refused = await expectJson<{ error: { code: string; requestId: string } }>(
      await create(ws, "k-1", launchBody(ws, { globalTask: "Something else" })),
      422,
    );
    expect(refused.error.code).toBe("idempotency_key_reused");
    expect(await linksInD1(ws.workspaceId)).toBe(1);
  });

  it("does not remember a refused call: after fixing the body, the retry runs afresh", async () => {
    const ws = await seedWorkspace();
    const bad = await expectJson<{ error: { code: string } }>(
      await create(ws, "k-2", launchBody(ws, { parameters: { plan: 5 } })),
      400,
    );
    expect(bad.error.code).toBe("invalid_parameters");
    const fixed = await create(ws, "k-2");
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get("idempotent-replayed")).toBeNull();
  });

  it("makes one link of 20 concurrent identical calls: 201 with one body, or 409 while in flight", async () => {
    const ws = await seedWorkspace();
    const responses = await Promise.all(Array.from({ length: 20 }, () => create(ws, "burst")));
    const bodies = new Set<string>();
    for (const response of responses) {
      const text = await response.text();
      if (response.status === 201) bodies.add(text);
      else {
        expect(response.status).toBe(409);
        expect(JSON.parse(text).error.code).toBe("idempotency_key_in_use");
        expect(response.headers.get("retry-after")).toBe("1");
      }
    }
    expect(bodies.size).toBe(1);
    expect(await linksInD1(ws.workspaceId)).toBe(1);
    // Once the first is done, every retry gets its answer.
    const late = await create(ws, "burst");
    expect(await late.text()).toBe([...bodies][0]);
  });

  it("scopes keys to the widget key, and forgets them after 24 hours", async () => {
    const ws = await seedWorkspace();
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    vi.setSystemTime(start);
    const first = await expectJson<Created>(await create(ws, "daily"), 201);
    const other = await createWidgetKey(ws);
    const byOtherKey = await expectJson<Created>(
      await create(ws, "daily", launchBody(ws), other.key),
      201,
    );
    expect(byOtherKey.id).not.toBe(first.id);
    vi.setSystemTime(start + 24 * 60 * 60_000 + 1);
    const later = await create(ws, "daily");
    expect(later.headers.get("idempotent-replayed")).toBeNull();
    expect((await expectJson<Created>(later, 201)).id).not.toBe(first.id);
  });

  it.each([
    ["empty", ""],
    ["too long", "k".repeat(256)],
    ["not printable ASCII", "clé"],
  ])("refuses a key that is %s: 400 invalid_request", async (_label, key) => {
    const ws = await seedWorkspace();
    const response = await call("POST", "/v1/widget/launches", {
      token: ws.widgetKey,
      body: launchBody(ws),
      headers: { "idempotency-key": key },
    });
    const body = await expectJson<{ error: { code: string } }>(response, 400);
    expect(body.error.code).toBe("invalid_request");
    expect(await linksInD1(ws.workspaceId)).toBe(0);
  });

  it("keeps the stored answer sealed: the token is nowhere in the ledger's storage", async () => {
    const ws = await seedWorkspace();
    const created = await expectJson<Created>(await create(ws, "sealed"), 201);
    const stored = await runInDurableObject(
      linkLedger(env, ws.workspaceId),
      async (_instance, state) => {
        let text = "";
        for (const [key, value] of await state.storage.list())
          text += `${key}${JSON.stringify(value)}`;
        const tables = state.storage.sql
          .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
          .toArray();
        for (const { name } of tables) {
          try {
            for (const row of state.storage.sql.exec(`SELECT * FROM "${name}"`).toArray()) {
              text += JSON.stringify(row);
            }
          } catch {
            // tables the runtime keeps to itself (read through the storage API above)
          }
        }
        return text;
      },
    );
    expect(stored.length).toBeGreaterThan(0);
    expect(stored).not.toContain(created.token);
    expect(stored).not.toContain(encodeURIComponent(created.token));
  });
});
