/**
 * Sticky notes on a workflow (docs/api/webhooks.md#notes): saved with the workflow by POST and
 * PUT, returned by every read, checked (at most 100, keys unique and in their format, text up to
 * 5,000 characters, a positive size), and never seen by runs: the runner's configuration has the
 * definition alone, and a workflow with notes runs as one without.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database } from "../../src/db/database";
import { readRunnerConfig } from "../../src/workflows/runner/config";
import { call, expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import { hook } from "../helpers/workflows";

type Note = {
  key: string;
  text: string;
  position: { x: number; y: number };
  size?: { width: number; height: number };
};
type Workflow = { id: string; notes: Note[]; webhookUrls: Record<string, string> };
type Refusal = { error: { code: string; details: { field: string; code: string }[] } };

const NOTES: Note[] = [
  {
    key: "why",
    text: "Orders from the shop.\nAsk Ada before changing.",
    position: { x: 10, y: -40 },
  },
  { key: "todo_2", text: "", position: { x: 300.5, y: 0 }, size: { width: 240, height: 120 } },
];

let counter = 0;

/** The body of a one-webhook workflow with `notes` (left out when undefined). */
function body(notes?: unknown) {
  counter += 1;
  return {
    name: `Noted ${counter}`,
    slug: `noted-${counter}`,
    nodes: [{ type: "webhook" }],
    ...(notes === undefined ? {} : { notes }),
  };
}

const create = (ws: Workspace, notes?: unknown) =>
  call("POST", "/v1/manage/workflows", { token: ws.ownerToken, body: body(notes) });

/** The problems of a refused create with `notes`, as `[field, code]`. */
async function refused(ws: Workspace, notes: unknown): Promise<string[][]> {
  const answer = await expectJson<Refusal>(await create(ws, notes), 400);
  expect(answer.error.code).toBe("invalid_request");
  return answer.error.details.map((detail) => [detail.field, detail.code]);
}

describe("a workflow's sticky notes", () => {
  it("are saved, returned and replaced with the workflow; none by default", async () => {
    const ws = await seedWorkspace();
    const bare = await expectJson<Workflow>(await create(ws), 201);
    expect(bare.notes).toEqual([]);

    const noted = await expectJson<Workflow>(await create(ws, NOTES), 201);
    expect(noted.notes).toEqual(NOTES);
    const read = (id: string) =>
      call("GET", `/v1/manage/workflows/${id}`, { token: ws.ownerToken });
    expect((await expectJson<Workflow>(await read(noted.id), 200)).notes).toEqual(NOTES);
    const list = await expectJson<{ data: Workflow[] }>(
      await call("GET", "/v1/manage/workflows", { token: ws.ownerToken }),
      200,
    );
    expect(list.data.find((workflow) => workflow.id === noted.id)?.notes).toEqual(NOTES);

    const moved = [{ ...NOTES[0], position: { x: 0, y: 0 } }] as Note[];
    const put = (notes?: Note[]) =>
      call("PUT", `/v1/manage/workflows/${noted.id}`, {
        token: ws.ownerToken,
        body: { ...body(notes), slug: `kept-${noted.id.slice(-6).toLowerCase()}` },
      });
    expect((await expectJson<Workflow>(await put(moved), 200)).notes).toEqual(moved);
    expect((await expectJson<Workflow>(await read(noted.id), 200)).notes).toEqual(moved);
    // A replace without notes leaves none, as it does without connections.
    expect((await expectJson<Workflow>(await put(), 200)).notes).toEqual([]);
  });

  it("refuses a second note with a key, and notes out of their shape, every problem at once", async () => {
    const ws = await seedWorkspace();
    const at = { x: 0, y: 0 };
    expect(
      await refused(ws, [
        { key: "a", text: "", position: at },
        { key: "b", text: "", position: at },
        { key: "a", text: "", position: at },
      ]),
    ).toEqual([["notes.2.key", "duplicate_key"]]);
    // The definition's problems and the notes' are listed together.
    const both = await call("POST", "/v1/manage/workflows", {
      token: ws.ownerToken,
      body: {
        ...body([
          { key: "a", text: "", position: at },
          { key: "a", text: "", position: at },
        ]),
        nodes: [
          { type: "webhook", key: "w" },
          { type: "wait", key: "w", seconds: 1 },
        ],
      },
    });
    const listed = await expectJson<Refusal>(both, 400);
    expect(listed.error.details.map((detail) => [detail.field, detail.code])).toEqual([
      ["nodes[1].key", "duplicate_key"],
      ["notes.1.key", "duplicate_key"],
    ]);

    expect(await refused(ws, [{ key: "no spaces", text: "", position: at }])).toEqual([
      ["notes.0.key", "invalid_format"],
    ]);
    expect(await refused(ws, [{ key: "k".repeat(65), text: "", position: at }])).toEqual([
      ["notes.0.key", "out_of_range"],
    ]);
    expect(await refused(ws, [{ key: "", text: "", position: at }])).toEqual([
      ["notes.0.key", "out_of_range"],
    ]);
    expect(await refused(ws, [{ key: "long", text: "x".repeat(5_001), position: at }])).toEqual([
      ["notes.0.text", "out_of_range"],
    ]);
    const flat = { key: "flat", text: "", position: at, size: { width: 0, height: 10 } };
    expect(await refused(ws, [flat])).toEqual([["notes.0.size.width", "out_of_range"]]);
    expect(await refused(ws, [{ key: "nowhere", text: "" }])).toEqual([
      ["notes.0.position", "required"],
    ]);
    expect(await refused(ws, [{ key: "c", text: "", position: at, colour: "yellow" }])).toEqual([
      ["notes.0.colour", "unknown_field"],
    ]);
    const many = Array.from({ length: 101 }, (_, i) => ({ key: `n${i}`, text: "", position: at }));
    expect(await refused(ws, many)).toEqual([["notes", "out_of_range"]]);
    // A hundred, all different, and 5,000 characters are fine.
    const hundred = many.slice(0, 100);
    hundred[0] = { key: "n0", text: "x".repeat(5_000), position: at };
    expect((await expectJson<Workflow>(await create(ws, hundred), 201)).notes).toHaveLength(100);
  });

  it("are never seen by runs: the runner's definition has none, and the workflow runs", async () => {
    const ws = await seedWorkspace();
    const noted = await expectJson<Workflow>(await create(ws, NOTES), 201);
    const config = await readRunnerConfig(database(env), noted.id);
    expect(config?.definition).toBeDefined();
    expect(JSON.stringify(config)).not.toContain("Ask Ada");
    expect(Object.keys(config?.definition ?? {})).not.toContain("notes");

    await call("POST", `/v1/manage/workflows/${noted.id}/start`, { token: ws.ownerToken });
    const url = noted.webhookUrls.webhook_1 as string;
    const answer = await expectJson<{ success: boolean }>(await hook(url, { body: { a: 1 } }), 200);
    expect(answer.success).toBe(true);
  });
});
