/**
 * `__proto__`, `constructor` and `prototype` are data, never a way into an object's prototype
 * (docs/api/launch.md#parameters): sent as launch parameters they are refused as unknown
 * parameters like any other undefined name, and no agent may define a parameter by these names.
 */
import { describe, expect, it } from "vitest";
import { call, expectJson, launchBody, seedWorkspace } from "../helpers/api";

const RESERVED = ["__proto__", "constructor", "prototype"] as const;

describe("prototype keys in launch parameters", () => {
  it.each(RESERVED)("refuses %s with 400 invalid_parameters (unknown_parameter)", async (name) => {
    const ws = await seedWorkspace();
    // Written as text: an object literal with `__proto__` would set the prototype, not a key.
    const body = JSON.stringify(launchBody(ws)).replace(
      '"parameters":{',
      `"parameters":{"${name}":"polluted",`,
    );
    const refused = await expectJson<{ error: { code: string; details: unknown[] } }>(
      await call("POST", "/v1/widget/launches", {
        token: ws.widgetKey,
        body,
        headers: { "content-type": "application/json" },
      }),
      400,
    );
    expect(refused.error.code).toBe("invalid_parameters");
    expect(refused.error.details).toEqual([{ code: "unknown_parameter", name }]);
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });

  it.each(RESERVED)("refuses an agent parameter named %s", async (name) => {
    const ws = await seedWorkspace();
    const refused = await expectJson<{ error: { code: string; details: { path: string }[] } }>(
      await call("POST", "/v1/manage/agents", {
        token: ws.ownerToken,
        body: `{"name":"A","mode":"initiator","greeting":"Hi","parameters":[{"name":"${name}","type":"string"}]}`,
        headers: { "content-type": "application/json" },
      }),
      400,
    );
    expect(refused.error.code).toBe("invalid_request");
  });
});
