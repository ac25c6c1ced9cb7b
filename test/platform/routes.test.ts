/**
 * The Worker's two apps (src/routes.ts): the hot app, built at start-up, serves the launch API,
 * the webhook trigger and the chat; the full app, built on first use, every route. A request goes
 * to the hot app when its path matches HOT_PATH, so each route of the full app under HOT_PATH must
 * be one the hot app has too, with the same method; otherwise it would answer 404 there.
 */
import { describe, expect, it } from "vitest";
import { appFor, fullApp, HOT_PATH, hotApp } from "../../src/routes";
import { call, expectJson } from "../helpers/api";

/** A path that `pattern` (Hono's `:id` and `*`) matches. */
const sample = (pattern: string) => pattern.replace(/:[^/]+/g, "x").replace(/\*/g, "x");

const handlers = (routes: readonly { method: string; path: string }[]) =>
  new Set(routes.map((route) => `${route.method} ${route.path}`));

describe("routing between the hot app and the full app (docs/performance.md#start-up)", () => {
  it("serves every route under the hot paths from the hot app, and only those", () => {
    const hot = handlers(hotApp.routes);
    const underHot = fullApp().routes.filter((route) => HOT_PATH.test(sample(route.path)));
    const missing = underHot.filter((route) => !hot.has(`${route.method} ${route.path}`));
    expect(missing).toEqual([]);
    // The launch API, the webhook trigger and the chat are all there.
    for (const path of ["/v1/widget/launches", "/webhooks/a/b/c", "/v1/chat/sessions", "/chat"]) {
      expect(HOT_PATH.test(path), path).toBe(true);
    }
    // Their routes are the hot app's, not a copy made for the request.
    expect(appFor(new Request("http://x/webhooks/a/b/c"))).toBe(hotApp);
    expect(appFor(new Request("http://x/health"))).toBe(hotApp);
  });

  it("sends the management API, sign-in, the dashboard and the document to the full app", () => {
    for (const path of [
      "/v1/manage/workflows",
      "/v1/operator/workspaces",
      "/sign-in",
      "/app",
      "/openapi.json",
      "/docs",
      "/v1/widgets",
      "/nowhere",
    ]) {
      expect(HOT_PATH.test(path), path).toBe(false);
      expect(appFor(new Request(`http://x${path}?q=1`))).toBe(fullApp());
    }
    const manage = fullApp().routes.filter((route) => route.path.startsWith("/v1/manage/"));
    expect(manage.length).toBeGreaterThan(30);
    expect(handlers(hotApp.routes)).not.toContain("GET /v1/manage/workflows");
  });

  it("answers a wrong method on a hot path with 405 and the methods of the hot routes", async () => {
    const response = await call("GET", "/v1/chat/sessions");
    const body = await expectJson<{ error: { code: string } }>(response, 405);
    expect(body.error.code).toBe("method_not_allowed");
    expect(response.headers.get("allow")).toBe("POST");
  });
});
