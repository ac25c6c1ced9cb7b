/** The agent setting `analysis` (docs/api/manage.md#analysis): stored, shown, and checked field by field. */
import { describe, expect, it } from "vitest";
import { call, expectJson, seedWorkspace } from "../helpers/api";

type Details = { error: { code: string; details: { field: string; message: string }[] } };

const field = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  type: "string",
  description: `The ${name}`,
  ...extra,
});

describe("the analysis setting", () => {
  it("is null by default, stored as given, and turned off with null", async () => {
    const ws = await seedWorkspace();
    const path = `/v1/manage/agents/${ws.agentId}`;
    const initial = await expectJson<{ analysis: unknown }>(
      await call("GET", path, { token: ws.ownerToken }),
      200,
    );
    expect(initial.analysis).toBeNull();
    const analysis = {
      summary: true,
      fields: [
        field("reason", { options: ["billing", "bug"] }),
        { name: "score", type: "integer", description: "1 to 5" },
      ],
    };
    const changed = await expectJson<{ analysis: unknown }>(
      await call("PATCH", path, { token: ws.ownerToken, body: { analysis } }),
      200,
    );
    expect(changed.analysis).toEqual(analysis);
    expect(
      (
        await expectJson<{ analysis: unknown }>(
          await call("GET", path, { token: ws.ownerToken }),
          200,
        )
      ).analysis,
    ).toEqual(analysis);
    const off = await expectJson<{ analysis: unknown }>(
      await call("PATCH", path, { token: ws.ownerToken, body: { analysis: null } }),
      200,
    );
    expect(off.analysis).toBeNull();
    const created = await expectJson<{ analysis: unknown }>(
      await call("POST", "/v1/manage/agents", {
        token: ws.ownerToken,
        body: { name: "Rated", mode: "responder", analysis: { summary: true, fields: [] } },
      }),
      201,
    );
    expect(created.analysis).toEqual({ summary: true, fields: [] });
  });

  it("refuses 21 fields", async () => {
    const ws = await seedWorkspace();
    const fields = Array.from({ length: 21 }, (_, i) => field(`f${i}`));
    const body = await expectJson<Details>(
      await call("PATCH", `/v1/manage/agents/${ws.agentId}`, {
        token: ws.ownerToken,
        body: { analysis: { summary: false, fields } },
      }),
      400,
    );
    expect(body.error.code).toBe("invalid_request");
    expect(body.error.details.map((d) => d.field)).toEqual(["analysis.fields"]);
    // Twenty are fine.
    await expectJson(
      await call("PATCH", `/v1/manage/agents/${ws.agentId}`, {
        token: ws.ownerToken,
        body: { analysis: { summary: false, fields: fields.slice(0, 20) } },
      }),
      200,
    );
  });

  it("lists every problem: duplicate and bad names, bad types, options off strings, no description", async () => {
    const ws = await seedWorkspace();
    const body = await expectJson<Details>(
      await call("PATCH", `/v1/manage/agents/${ws.agentId}`, {
        token: ws.ownerToken,
        body: {
          analysis: {
            summary: true,
            fields: [
              field("topic"),
              field("topic"),
              field("1st"),
              field("when", { type: "date" }),
              field("count", { type: "number", options: ["1"] }),
              { name: "mood", type: "string" },
              field("__proto__"),
              field("tier", { options: ["a", "a"] }),
            ],
          },
        },
      }),
      400,
    );
    expect(body.error.details.map((d) => d.field).sort()).toEqual([
      "analysis.fields.1.name",
      "analysis.fields.2.name",
      "analysis.fields.3.type",
      "analysis.fields.4.options",
      "analysis.fields.5.description",
      "analysis.fields.6.name",
      "analysis.fields.7.options",
    ]);
    const duplicate = body.error.details.find((d) => d.field === "analysis.fields.1.name");
    expect(duplicate?.message).toBe("Duplicate field name.");
  });

  it("refuses an analysis asking for nothing", async () => {
    const ws = await seedWorkspace();
    const body = await expectJson<Details>(
      await call("PATCH", `/v1/manage/agents/${ws.agentId}`, {
        token: ws.ownerToken,
        body: { analysis: { summary: false, fields: [] } },
      }),
      400,
    );
    expect(body.error.details.map((d) => d.field)).toEqual(["analysis.fields"]);
  });
});
