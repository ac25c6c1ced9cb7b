import { describe, expect, it } from "vitest";
import { call, expectJson, launchBody, seedWorkspace } from "../helpers/api";

describe("widget launches: happy path", () => {
  it("creates, looks up and revokes a link", async () => {
    const ws = await seedWorkspace();
    const created = await expectJson<Record<string, string>>(
      await call("POST", "/v1/widget/launches", {
        token: ws.widgetKey,
        body: launchBody(ws, { participant: { name: "Ada", externalId: "cus_42" } }),
      }),
      201,
    );
    expect(created.id).toMatch(/^lnk_/);
    expect(created.status).toBe("pending");
    const looked = await expectJson<Record<string, unknown>>(
      await call("GET", `/v1/widget/launches/${created.id}`, { apiKey: ws.widgetKey }),
      200,
    );
    expect(looked).toMatchObject({ id: created.id, status: "pending", conversation: null });
    expect(
      (await call("DELETE", `/v1/widget/launches/${created.id}`, { token: ws.widgetKey })).status,
    ).toBe(204);
  });
});
