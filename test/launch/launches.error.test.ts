import { describe, expect, it } from "vitest";
import { call, expectJson, launchBody, seedWorkspace } from "../helpers/api";

import { expectError } from "../helpers/errors";

/** A JSON body of exactly `bytes` bytes: a valid create request padded with trailing spaces. */
function paddedBody(body: object, bytes: number): string {
  const json = JSON.stringify(body);
  return json + " ".repeat(bytes - json.length);
}

function streamOf(text: string, chunkSize = 4096): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + chunkSize));
      offset += chunkSize;
    },
  });
}

describe("create: body size (spec 8, docs/api/launch.md)", () => {
  it("accepts 32,768 bytes and refuses 32,769 with 413 invalid_request", async () => {
    const ws = await seedWorkspace();
    const ok = await call("POST", "/v1/widget/launches", {
      token: ws.widgetKey,
      body: paddedBody(launchBody(ws), 32_768),
      headers: { "content-type": "application/json" },
    });
    expect(ok.status).toBe(201);
    const tooBig = await call("POST", "/v1/widget/launches", {
      token: ws.widgetKey,
      body: paddedBody(launchBody(ws), 32_769),
      headers: { "content-type": "application/json" },
    });
    await expectError(tooBig, 413, "invalid_request");
  });

  it("refuses a chunked 40 KB body without Content-Length, and accepts a small chunked one", async () => {
    const ws = await seedWorkspace();
    const big = await call("POST", "/v1/widget/launches", {
      token: ws.widgetKey,
      body: streamOf(paddedBody(launchBody(ws), 40 * 1024)),
      headers: { "content-type": "application/json" },
    });
    await expectError(big, 413, "invalid_request");
    const small = await call("POST", "/v1/widget/launches", {
      token: ws.widgetKey,
      body: streamOf(JSON.stringify(launchBody(ws)), 16),
      headers: { "content-type": "application/json" },
    });
    expect(small.status).toBe(201);
  });
});

describe("create: JSON and shape (400 invalid_request)", () => {
  it("refuses a body that is not JSON, and a missing Content-Type", async () => {
    const ws = await seedWorkspace();
    const broken = await call("POST", "/v1/widget/launches", {
      token: ws.widgetKey,
      body: '{"flowId": ',
      headers: { "content-type": "application/json" },
    });
    const body = await expectError(broken, 400, "invalid_request");
    expect(body.error.details).toEqual([expect.objectContaining({ code: "invalid_json" })]);
    const plain = await call("POST", "/v1/widget/launches", {
      token: ws.widgetKey,
      body: JSON.stringify(launchBody(ws)),
      headers: { "content-type": "text/plain" },
    });
    const plainBody = await expectError(plain, 400, "invalid_request");
    expect(plainBody.error.details).toEqual([
      expect.objectContaining({ code: "unsupported_media_type" }),
    ]);
  });

  it("lists every unknown and malformed field at once", async () => {
    const ws = await seedWorkspace();
    const response = await call("POST", "/v1/widget/launches", {
      token: ws.widgetKey,
      body: {
        channelId: 42,
        parameters: [],
        participant: { name: "x".repeat(201), externalId: "y".repeat(256), email: "a@b.c" },
        globalTask: "t".repeat(4001),
        expiresInSeconds: 299,
        colour: "blue",
      },
    });
    const { error } = await expectError(response, 400, "invalid_request");
    const byField = Object.fromEntries(error.details.map((d) => [d.field, d.code]));
    expect(byField).toEqual({
      flowId: "required",
      channelId: "invalid_type",
      parameters: "invalid_type",
      "participant.name": "out_of_range",
      "participant.externalId": "out_of_range",
      "participant.email": "unknown_field",
      globalTask: "out_of_range",
      expiresInSeconds: "out_of_range",
      colour: "unknown_field",
    });
    for (const detail of error.details) expect(typeof detail.message).toBe("string");
  });

  it.each([
    [299, 400],
    [300, 201],
    [7_776_000, 201],
    [7_776_001, 400],
    [600.5, 400],
    ["600", 400],
  ])("expiresInSeconds %s gives %i", async (expiresInSeconds, status) => {
    const ws = await seedWorkspace();
    const response = await call("POST", "/v1/widget/launches", {
      token: ws.widgetKey,
      body: launchBody(ws, { expiresInSeconds }),
    });
    expect(response.status).toBe(status);
  });

  it("accepts the longest participant name, externalId and globalTask", async () => {
    const ws = await seedWorkspace();
    const response = await call("POST", "/v1/widget/launches", {
      token: ws.widgetKey,
      body: launchBody(ws, {
        participant: { name: "n".repeat(200), externalId: "e".repeat(255) },
        globalTask: "g".repeat(4000),
      }),
    });
    expect(response.status).toBe(201);
  });
});

describe("create: agent, channel and parameters", () => {
  it("gives 404 widget_not_found for an unknown agent, an unknown channel or a channel of another agent", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    for (const body of [
      launchBody(ws, { flowId: "agt_unknown" }),
      launchBody(ws, { channelId: "ch_unknown" }),
      launchBody(ws, { flowId: other.agentId, channelId: other.channelId }),
      launchBody(ws, { channelId: other.channelId }),
    ]) {
      await expectError(
        await call("POST", "/v1/widget/launches", { token: ws.widgetKey, body }),
        404,
        "widget_not_found",
      );
    }
  });

  it("refuses every parameter problem at once with {code, name} details", async () => {
    const ws = await seedWorkspace();
    const response = await call("POST", "/v1/widget/launches", {
      token: ws.widgetKey,
      body: launchBody(ws, {
        parameters: { unknown: "x", tier: "gold", balance: "5", seats: 1.5, vip: "yes" },
      }),
    });
    const { error } = await expectError(response, 400, "invalid_parameters");
    expect(error.details).toEqual([
      { code: "unknown_parameter", name: "unknown" },
      { code: "invalid_option", name: "tier" },
      { code: "invalid_type", name: "balance" },
      { code: "invalid_type", name: "seats" },
      { code: "invalid_type", name: "vip" },
      { code: "missing_required", name: "plan" },
    ]);
  });

  it.each([
    ["unknown", { plan: "a", nope: 1 }, "unknown_parameter", "nope"],
    ["wrong type", { plan: "a", balance: "5" }, "invalid_type", "balance"],
    ["integer 1.5", { plan: "a", seats: 1.5 }, "invalid_type", "seats"],
    ["outside options", { plan: "a", tier: "gold" }, "invalid_option", "tier"],
    ["missing required", {}, "missing_required", "plan"],
  ])("refuses a parameter that is %s", async (_label, parameters, code, name) => {
    const ws = await seedWorkspace();
    const response = await call("POST", "/v1/widget/launches", {
      token: ws.widgetKey,
      body: launchBody(ws, { parameters }),
    });
    const { error } = await expectError(response, 400, "invalid_parameters");
    expect(error.details).toEqual([{ code, name }]);
  });

  it("accepts every defined type with the right value", async () => {
    const ws = await seedWorkspace();
    const response = await call("POST", "/v1/widget/launches", {
      token: ws.widgetKey,
      body: launchBody(ws, {
        parameters: { plan: "p", tier: "pro", balance: 9.5, seats: 4, vip: true },
      }),
    });
    expect(response.status).toBe(201);
  });
});

describe("look-up and revoke errors", () => {
  it("gives 404 not_found for an unknown link and for a link of another workspace", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const created = await expectJson<{ id: string }>(
      await call("POST", "/v1/widget/launches", {
        token: other.widgetKey,
        body: launchBody(other),
      }),
      201,
    );
    for (const id of ["lnk_doesnotexist", created.id]) {
      await expectError(
        await call("GET", `/v1/widget/launches/${id}`, { token: ws.widgetKey }),
        404,
        "not_found",
      );
      await expectError(
        await call("DELETE", `/v1/widget/launches/${id}`, { token: ws.widgetKey }),
        404,
        "not_found",
      );
    }
    // The other workspace's link is untouched.
    const still = await expectJson<{ status: string }>(
      await call("GET", `/v1/widget/launches/${created.id}`, { token: other.widgetKey }),
      200,
    );
    expect(still.status).toBe("pending");
  });

  it("answers unknown routes with the error envelope", async () => {
    const response = await call("GET", "/nope");
    await expectError(response, 404, "not_found");
  });
});
