/**
 * A widget channel's allowed origins (docs/widget.md#allowed-sites, docs/api/manage.md#agents-and-channels):
 * set when the channel is created and changed with `PATCH …/channels/{channelId}`, checked (origins
 * only, at most 20), stored in their canonical form, and changed by Owners and Admins only.
 */
import { describe, expect, it } from "vitest";
import { call, expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import { expectError } from "../helpers/errors";

type Channel = { id: string; name: string; allowedOrigins: string[] };

const channelsPath = (ws: Workspace) => `/v1/manage/agents/${ws.agentId}/channels`;

function addChannel(ws: Workspace, body: Record<string, unknown>): Promise<Response> {
  return call("POST", channelsPath(ws), {
    token: ws.ownerToken,
    body: { type: "widget", name: "Shop", ...body },
  });
}

function patchChannel(
  ws: Workspace,
  channelId: string,
  body: unknown,
  token = ws.ownerToken,
): Promise<Response> {
  return call("PATCH", `${channelsPath(ws)}/${channelId}`, { token, body });
}

describe("a widget channel's allowed origins", () => {
  it("are empty (any site) unless given, and listed with the channel", async () => {
    const ws = await seedWorkspace();
    const listed = await expectJson<{ data: Channel[] }>(
      await call("GET", channelsPath(ws), { token: ws.ownerToken }),
      200,
    );
    expect(listed.data[0]?.allowedOrigins).toEqual([]);
    const created = await expectJson<Channel>(
      await addChannel(ws, { allowedOrigins: ["https://shop.example.com"] }),
      201,
    );
    expect(created.allowedOrigins).toEqual(["https://shop.example.com"]);
    const again = await expectJson<{ data: Channel[] }>(
      await call("GET", channelsPath(ws), { token: ws.ownerToken }),
      200,
    );
    expect(again.data.find((c) => c.id === created.id)?.allowedOrigins).toEqual([
      "https://shop.example.com",
    ]);
  });

  it("are stored canonical: lower-case, punycode, no default port or trailing slash, each once", async () => {
    const ws = await seedWorkspace();
    const created = await expectJson<Channel>(
      await addChannel(ws, {
        allowedOrigins: [
          " HTTPS://Shop.Example.com:443/ ",
          "https://shop.example.com",
          "http://localhost:3000",
          "http://127.0.0.1:8080",
          "https://*.Example.org",
          "https://bücher.example",
          "http://shop.example.com:80",
        ],
      }),
      201,
    );
    expect(created.allowedOrigins).toEqual([
      "https://shop.example.com",
      "http://localhost:3000",
      "http://127.0.0.1:8080",
      "https://*.example.org",
      "https://xn--bcher-kva.example",
      "http://shop.example.com",
    ]);
  });

  it("refuse anything that is not an origin, each one named", async () => {
    const ws = await seedWorkspace();
    const refused = [
      "https://shop.example.com/path",
      "https://shop.example.com/?q=1",
      "https://shop.example.com#top",
      "shop.example.com",
      "ftp://shop.example.com",
      "javascript:alert(1)",
      "https://user:pw@shop.example.com",
      "https://[::1]:3000",
      "*",
      "https://*",
      "https://*.com",
      "https://shop.*.example.com",
      "https://shop_example.com",
      "https://shop.example.com:99999",
      "",
    ];
    const body = await expectError(
      await addChannel(ws, { allowedOrigins: ["https://fine.example.com", ...refused] }),
      400,
      "invalid_request",
    );
    const fields = body.error.details.map((detail) => detail.field);
    expect(fields).toEqual(refused.map((_, index) => `allowedOrigins.${index + 1}`));
    expect(String(body.error.details[0]?.message)).toContain("no path");
  });

  it("are at most 20", async () => {
    const ws = await seedWorkspace();
    const origins = (n: number) => Array.from({ length: n }, (_, i) => `https://s${i}.example.com`);
    await expectJson(await addChannel(ws, { allowedOrigins: origins(20) }), 201);
    await expectError(
      await addChannel(ws, { allowedOrigins: origins(21) }),
      400,
      "invalid_request",
    );
    await expectError(
      await patchChannel(ws, ws.channelId, { allowedOrigins: origins(21) }),
      400,
      "invalid_request",
    );
  });

  it("are changed with PATCH, with or without the name, and emptied to allow any site", async () => {
    const ws = await seedWorkspace();
    const changed = await expectJson<Channel>(
      await patchChannel(ws, ws.channelId, { allowedOrigins: ["https://Shop.example.com/"] }),
      200,
    );
    expect(changed).toMatchObject({
      id: ws.channelId,
      name: "Website",
      allowedOrigins: ["https://shop.example.com"],
    });
    const renamed = await expectJson<Channel>(
      await patchChannel(ws, ws.channelId, { name: "Shop site" }),
      200,
    );
    expect(renamed).toMatchObject({
      name: "Shop site",
      allowedOrigins: ["https://shop.example.com"],
    });
    const emptied = await expectJson<Channel>(
      await patchChannel(ws, ws.channelId, { allowedOrigins: [] }),
      200,
    );
    expect(emptied.allowedOrigins).toEqual([]);
    await expectError(
      await patchChannel(ws, ws.channelId, { allowedOrigins: ["https://a.example.com/x"] }),
      400,
      "invalid_request",
    );
    await expectError(
      await patchChannel(ws, ws.channelId, { type: "widget" }),
      400,
      "invalid_request",
    );
  });

  it("are changed by Owners and Admins of the channel's own workspace only", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const member = await expectJson<{ memberToken: string }>(
      await call("POST", "/v1/manage/members", {
        token: ws.ownerToken,
        body: { email: "mia@example.com", name: "Mia", role: "member" },
      }),
      201,
    );
    const body = { allowedOrigins: ["https://evil.example"] };
    await expectError(
      await patchChannel(ws, ws.channelId, body, member.memberToken),
      403,
      "insufficient_scope",
    );
    // Another workspace's owner, and the channel under another agent: no such channel.
    await expectError(
      await patchChannel(ws, ws.channelId, body, other.ownerToken),
      404,
      "not_found",
    );
    await expectError(
      await call("PATCH", `/v1/manage/agents/${other.agentId}/channels/${ws.channelId}`, {
        token: other.ownerToken,
        body,
      }),
      404,
      "not_found",
    );
    await expectError(
      await call("PATCH", `/v1/manage/agents/${ws.agentId}/channels/${other.channelId}`, {
        token: ws.ownerToken,
        body,
      }),
      404,
      "not_found",
    );
    const listed = await expectJson<{ data: Channel[] }>(
      await call("GET", channelsPath(ws), { token: ws.ownerToken }),
      200,
    );
    expect(listed.data[0]?.allowedOrigins).toEqual([]);
  });
});
