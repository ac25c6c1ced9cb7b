/**
 * A widget key that was revoked, expired or never issued is no credential at all: 401 invalid_key
 * on every route at once, even where the key was used a moment before and this isolate cached it
 * (docs/security.md#widget-keys). Only a live widget key on the management API is told it lacks
 * the scope (403 insufficient_scope).
 */
import { describe, expect, it } from "vitest";
import { call, errorCode, launchBody, seedWorkspace } from "../helpers/api";

describe("a revoked widget key after recent use", () => {
  it("gets 401 invalid_key on the management API, not 403", async () => {
    const ws = await seedWorkspace();
    // Warm every cache the key passes through: the launch API and the management API's refusal.
    expect(
      (await call("POST", "/v1/widget/launches", { token: ws.widgetKey, body: launchBody(ws) }))
        .status,
    ).toBe(201);
    const live = await call("GET", "/v1/manage/agents", { token: ws.widgetKey });
    expect([live.status, await errorCode(live)]).toEqual([403, "insufficient_scope"]);

    const revoked = await call("DELETE", `/v1/manage/widget-keys/${ws.widgetKeyId}`, {
      token: ws.ownerToken,
    });
    expect(revoked.status).toBe(204);

    for (const [method, path] of [
      ["GET", "/v1/manage/agents"],
      ["GET", "/v1/manage/widget-keys"],
      ["POST", "/v1/manage/agents"],
    ] as const) {
      const body = method === "POST" ? {} : undefined;
      const response = await call(method, path, { token: ws.widgetKey, body });
      expect([method, path, response.status, await errorCode(response)]).toEqual([
        method,
        path,
        401,
        "invalid_key",
      ]);
    }
    const launch = await call("POST", "/v1/widget/launches", {
      token: ws.widgetKey,
      body: launchBody(ws),
    });
    expect([launch.status, await errorCode(launch)]).toEqual([401, "invalid_key"]);
  });
});
