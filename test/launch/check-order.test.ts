/**
 * The launch API's order of checks (docs/api/launch.md#order-of-checks): when a call has several
 * faults, the one answered is the first in that order.
 */
import { describe, it } from "vitest";
import { call, expectJson, launchBody, seedWorkspace } from "../helpers/api";
import { expectError } from "../helpers/errors";

describe("check order (docs/api/launch.md)", () => {
  it("browser refusal before the key", async () => {
    const response = await call("POST", "/v1/widget/launches", {
      headers: { origin: "https://evil.test" },
    });
    await expectError(response, 403, "browser_not_allowed");
  });

  it("key before body size and shape", async () => {
    const response = await call("POST", "/v1/widget/launches", {
      token: "wk_live_nope",
      body: "x".repeat(40_000),
      headers: { "content-type": "application/json" },
    });
    await expectError(response, 401, "invalid_key");
  });

  it("body size before JSON", async () => {
    const ws = await seedWorkspace();
    const response = await call("POST", "/v1/widget/launches", {
      token: ws.widgetKey,
      body: "{".repeat(33_000),
      headers: { "content-type": "application/json" },
    });
    await expectError(response, 413, "invalid_request");
  });

  it("shape before key scope, scope before agent, agent before parameters", async () => {
    const ws = await seedWorkspace();
    const limited = await expectJson<{ key: string }>(
      await call("POST", "/v1/manage/widget-keys", {
        token: ws.ownerToken,
        body: { name: "limited", flowIds: [ws.agentId] },
      }),
      201,
    );
    // Malformed and for another agent: 400 first.
    await expectError(
      await call("POST", "/v1/widget/launches", {
        token: limited.key,
        body: { ...launchBody(ws, { flowId: "agt_other" }), extra: true },
      }),
      400,
      "invalid_request",
    );
    // Other agent that does not exist: 403 before 404.
    await expectError(
      await call("POST", "/v1/widget/launches", {
        token: limited.key,
        body: launchBody(ws, { flowId: "agt_other" }),
      }),
      403,
      "forbidden_flow",
    );
    // Unknown channel and bad parameters: 404 before 400 invalid_parameters.
    await expectError(
      await call("POST", "/v1/widget/launches", {
        token: limited.key,
        body: launchBody(ws, { channelId: "ch_other", parameters: { nope: 1 } }),
      }),
      404,
      "widget_not_found",
    );
  });
});
