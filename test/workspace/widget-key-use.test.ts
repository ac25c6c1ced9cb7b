/**
 * A widget key's `lastUsedAt` (docs/api/manage.md#widget-keys): null until the key authenticates
 * a call, then that call's time; written at most once a minute, so the Launch API stays a read.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, eventually, expectJson, launchBody, seedWorkspace } from "../helpers/api";

type Key = { id: string; lastUsedAt: string | null };

describe("a widget key's last use", () => {
  it("is null until used, then the time of the use, rewritten at most once a minute", async () => {
    const ws = await seedWorkspace();
    const created = await expectJson<Key & { key: string }>(
      await call("POST", "/v1/manage/widget-keys", { token: ws.ownerToken, body: { name: "api" } }),
      201,
    );
    expect(created.lastUsedAt).toBeNull();
    const before = Date.now();
    expect(
      (await call("POST", "/v1/widget/launches", { token: created.key, body: launchBody(ws) }))
        .status,
    ).toBe(201);
    const used = await eventually(async () => {
      const list = await expectJson<{ data: Key[] }>(
        await call("GET", "/v1/manage/widget-keys", { token: ws.ownerToken }),
        200,
      );
      return list.data.find((key) => key.id === created.id)?.lastUsedAt ?? undefined;
    });
    expect(Date.parse(used)).toBeGreaterThanOrEqual(before - 1);
    // A second call within the minute writes nothing.
    await call("GET", "/v1/widget/launches?limit=1", { token: created.key });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const row = await env.DB.prepare("SELECT last_used_at AS at FROM widget_keys WHERE id = ?")
      .bind(created.id)
      .first<{ at: number }>();
    expect(row?.at).toBe(Date.parse(used));
  });
});
