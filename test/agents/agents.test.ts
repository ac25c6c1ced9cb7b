/** Agents and their widget channels (docs/api/manage.md#agents-and-channels). */
import { describe, expect, it } from "vitest";
import { call, errorCode, expectJson, launchBody, seedWorkspace } from "../helpers/api";

describe("agents and channels (docs/api/manage.md)", () => {
  it("creates, reads, lists, changes and deletes an agent", async () => {
    const ws = await seedWorkspace();
    const agent = await expectJson<{ id: string; parameters: unknown[] }>(
      await call("POST", "/v1/manage/agents", {
        token: ws.ownerToken,
        body: {
          name: "Support",
          mode: "responder",
          parameters: [{ name: "order", type: "integer", required: true }],
        },
      }),
      201,
    );
    expect(agent.parameters).toEqual([{ name: "order", type: "integer", required: true }]);
    expect(
      (await call("GET", `/v1/manage/agents/${agent.id}`, { token: ws.ownerToken })).status,
    ).toBe(200);
    const list = await expectJson<{ data: { id: string }[] }>(
      await call("GET", "/v1/manage/agents", { token: ws.ownerToken }),
      200,
    );
    expect(list.data.map((a) => a.id)).toEqual([ws.agentId, agent.id]);
    const changed = await expectJson<{ name: string; mode: string }>(
      await call("PATCH", `/v1/manage/agents/${agent.id}`, {
        token: ws.ownerToken,
        body: { name: "Help desk" },
      }),
      200,
    );
    expect(changed).toMatchObject({ name: "Help desk", mode: "responder" });
    const channel = await expectJson<{ id: string; snippet: string }>(
      await call("POST", `/v1/manage/agents/${agent.id}/channels`, {
        token: ws.ownerToken,
        body: { type: "widget", name: "Web" },
      }),
      201,
    );
    // A template: the token of a link goes where it says (docs/widget.md#embedding).
    expect(channel.snippet).toBe(
      `<!-- Replace {{LAUNCH_TOKEN}} with the token your server gets for the signed-in person from POST /v1/widget/launches (its embedHtml is this tag with the token in place). -->\n<script src="https://edge.test/widget.js" data-flow-id="${agent.id}" data-channel-id="${channel.id}" data-launch="{{LAUNCH_TOKEN}}" async></script>`,
    );
    const channels = await expectJson<{ data: { id: string }[] }>(
      await call("GET", `/v1/manage/agents/${agent.id}/channels`, { token: ws.ownerToken }),
      200,
    );
    expect(channels.data.map((c) => c.id)).toEqual([channel.id]);
    expect(
      (await call("DELETE", `/v1/manage/agents/${agent.id}`, { token: ws.ownerToken })).status,
    ).toBe(204);
    expect(
      (await call("GET", `/v1/manage/agents/${agent.id}`, { token: ws.ownerToken })).status,
    ).toBe(404);
    const launch = await call("POST", "/v1/widget/launches", {
      token: ws.widgetKey,
      body: { flowId: agent.id, channelId: channel.id, parameters: { order: 1 } },
    });
    expect(launch.status).toBe(404);
    expect(await errorCode(launch)).toBe("widget_not_found");
  });

  it("validates new links against the agent's current parameters after a change", async () => {
    const ws = await seedWorkspace();
    const before = await call("POST", "/v1/widget/launches", {
      token: ws.widgetKey,
      body: launchBody(ws),
    });
    expect(before.status).toBe(201);
    await expectJson(
      await call("PATCH", `/v1/manage/agents/${ws.agentId}`, {
        token: ws.ownerToken,
        body: { parameters: [{ name: "region", type: "string", required: true }] },
      }),
      200,
    );
    const after = await call("POST", "/v1/widget/launches", {
      token: ws.widgetKey,
      body: launchBody(ws),
    });
    const body = await expectJson<{ error: { details: unknown[] } }>(after, 400);
    expect(body.error.details).toEqual([
      { code: "unknown_parameter", name: "plan" },
      { code: "missing_required", name: "region" },
    ]);
    await expectJson(
      await call("DELETE", `/v1/manage/agents/${ws.agentId}`, { token: ws.ownerToken }),
      204,
    );
    const gone = await call("POST", "/v1/widget/launches", {
      token: ws.widgetKey,
      body: launchBody(ws, { parameters: { region: "eu" } }),
    });
    expect(gone.status).toBe(404);
  });

  it("refuses bad parameter definitions, listing every problem", async () => {
    const ws = await seedWorkspace();
    const response = await call("POST", "/v1/manage/agents", {
      token: ws.ownerToken,
      body: {
        name: "Bad",
        mode: "chatty",
        parameters: [
          { name: "a", type: "string" },
          { name: "a", type: "number" },
          { name: "n", type: "integer", options: [1, 2.5] },
          { name: "1bad", type: "date" },
        ],
      },
    });
    const body = await expectJson<{ error: { details: { field: string }[] } }>(response, 400);
    expect(body.error.details.map((d) => d.field).sort()).toEqual([
      "mode",
      "parameters.1.name",
      "parameters.2.options.1",
      "parameters.3.name",
      "parameters.3.type",
    ]);
  });

  it("keeps agents of other workspaces out of reach", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    expect(
      (await call("GET", `/v1/manage/agents/${other.agentId}`, { token: ws.ownerToken })).status,
    ).toBe(404);
    expect(
      (
        await call("POST", `/v1/manage/agents/${other.agentId}/channels`, {
          token: ws.ownerToken,
          body: { type: "widget", name: "x" },
        })
      ).status,
    ).toBe(404);
    expect(
      (await call("POST", "/v1/widget/launches", { token: ws.widgetKey, body: launchBody(other) }))
        .status,
    ).toBe(404);
  });
});
