/**
 * Reading the audit log (docs/api/manage.md#audit-log): `GET /v1/manage/audit-log` lists a
 * workspace's entries newest first, filtered by action and actor, paged by `nextCursor`; Owners
 * and Admins only; nothing changes or deletes an entry; entries are kept 400 days.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { encodeCursor } from "../../src/platform/cursor";
import {
  call,
  createWidgetKey,
  errorCode,
  expectJson,
  OPERATOR_TOKEN,
  seedWorkspace,
  type Workspace,
} from "../helpers/api";
import { d1Tables } from "../helpers/storage-scan";
import { putSecret } from "../helpers/workflows";

type Entry = {
  id: string;
  at: string;
  action: string;
  actor: { type: string; id: string; name?: string };
  target: { type: string; id: string };
};
type Page = { data: Entry[]; hasMore: boolean; nextCursor: string | null };

const DAY = 86_400_000;

const read = (ws: Workspace, query = "", token = ws.ownerToken) =>
  call("GET", `/v1/manage/audit-log${query}`, { token });
const page = async (ws: Workspace, query = "", token = ws.ownerToken) =>
  expectJson<Page>(await read(ws, query, token), 200);

async function invite(ws: Workspace, role: "admin" | "member", name = "Ada Admin") {
  return expectJson<{ member: { id: string }; memberToken: string }>(
    await call("POST", "/v1/manage/members", {
      token: ws.ownerToken,
      body: { email: `${crypto.randomUUID()}@example.com`, name, role },
    }),
    201,
  );
}

afterEach(() => {
  vi.useRealTimers();
});

describe("GET /v1/manage/audit-log", () => {
  it("lists the workspace's entries newest first, filtered by action and actor, a page at a time", async () => {
    const ws = await seedWorkspace();
    vi.useFakeTimers({ toFake: ["Date"] });
    let clock = Date.now();
    // A second between the changes after the seeding, so "newest first" has one answer.
    const tick = () => {
      clock += 1_000;
      vi.setSystemTime(clock);
    };
    tick();
    const admin = await invite(ws, "admin");
    tick();
    const key = await createWidgetKey(ws, { name: "by admin" }, admin.memberToken);
    tick();
    await call("DELETE", `/v1/manage/widget-keys/${key.id}`, { token: ws.ownerToken });
    tick();

    const all: Entry[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `?limit=2${cursor ? `&cursor=${cursor}` : ""}`;
      const got: Page = await page(ws, query);
      expect(got.data.length).toBeLessThanOrEqual(2);
      expect(got.hasMore).toBe(got.nextCursor !== null);
      all.push(...got.data);
      cursor = got.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);
    const actions = all.map((entry) => entry.action);
    expect(actions.slice(0, 3)).toEqual([
      "widget_key.revoked",
      "widget_key.created",
      "member.invited",
    ]);
    // The seeding's four may share a millisecond, where the order is the ids'.
    expect(actions.slice(3).sort()).toEqual(
      ["agent.created", "channel.created", "widget_key.created", "workspace.created"].sort(),
    );
    expect(pages).toBe(4);
    expect(new Set(all.map((entry) => entry.id)).size).toBe(all.length);
    for (const entry of all) expect(entry.id).toMatch(/^aud_[0-9A-Za-z]{22}$/);
    const times = all.map((entry) => Date.parse(entry.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(all[0]?.at).toBe(new Date(clock - 1_000).toISOString());

    const owner = { type: "member", id: ws.ownerId, name: "Olga Owner" };
    const ada = { type: "member", id: admin.member.id, name: "Ada Admin" };
    expect(all[0]).toMatchObject({ actor: owner, target: { type: "widget_key", id: key.id } });
    expect(all[1]).toMatchObject({ actor: ada, target: { type: "widget_key", id: key.id } });
    expect(all[2]).toMatchObject({ actor: owner, target: { type: "member", id: admin.member.id } });
    const creation = all.find((entry) => entry.action === "workspace.created");
    expect(creation).toMatchObject({
      actor: { type: "operator", id: "operator" },
      target: { type: "workspace", id: ws.workspaceId },
    });
    expect(creation?.actor).not.toHaveProperty("name");

    const created = await page(ws, "?action=widget_key.created");
    expect(created.data.map((entry) => entry.target.id)).toEqual([key.id, ws.widgetKeyId]);
    const byAdmin = await page(ws, `?actorId=${admin.member.id}`);
    expect(byAdmin.data.map((entry) => entry.action)).toEqual(["widget_key.created"]);
    const both = await page(ws, `?actorId=${ws.ownerId}&action=widget_key.created`);
    expect(both.data.map((entry) => entry.target.id)).toEqual([ws.widgetKeyId]);
    const operator = await page(ws, "?actorId=operator");
    expect(operator.data.map((entry) => entry.action)).toEqual(["workspace.created"]);
  });

  it("pages 20 by default, at most 100, and refuses what it does not take", async () => {
    const ws = await seedWorkspace();
    for (let i = 0; i < 17; i++) await putSecret(ws, `S${i}`, "v");
    const first = await page(ws);
    expect(first.data.length).toBe(20);
    expect(first.hasMore).toBe(true);
    const rest = await page(ws, `?cursor=${first.nextCursor}`);
    expect(rest).toMatchObject({ hasMore: false, nextCursor: null });
    expect(rest.data.length).toBe(1);
    expect((await page(ws, "?limit=100")).data.length).toBe(21);

    const refused: Record<string, string> = {};
    for (const query of [
      "?limit=0",
      "?limit=101",
      "?limit=ten",
      "?action=widget_key.renamed",
      "?actorId=",
      `?actorId=${"x".repeat(65)}`,
      "?page=2",
      "?cursor=not-a-cursor",
      `?cursor=${encodeCursor(Date.now(), "dlv_0123456789012345678901")}`,
    ]) {
      const response = await read(ws, query);
      refused[query] = `${response.status} ${await errorCode(response)}`;
    }
    expect(Object.values(refused)).toEqual(Array(9).fill("400 invalid_request"));
  });

  it("is for Owners and Admins: a member, a widget key and no credential are refused", async () => {
    const ws = await seedWorkspace();
    const admin = await invite(ws, "admin");
    const member = await invite(ws, "member");
    expect((await read(ws, "", admin.memberToken)).status).toBe(200);
    const refusals = [
      await read(ws, "", member.memberToken),
      await read(ws, "", ws.widgetKey),
      await call("GET", "/v1/manage/audit-log"),
    ];
    expect(
      await Promise.all(refusals.map(async (r) => `${r.status} ${await errorCode(r)}`)),
    ).toEqual(["403 insufficient_scope", "403 insufficient_scope", "401 invalid_key"]);
    // The operator's own log takes the operator token only.
    expect((await call("GET", "/v1/operator/audit-log", { token: ws.ownerToken })).status).toBe(
      401,
    );
    expect((await call("GET", "/v1/operator/audit-log", { token: OPERATOR_TOKEN })).status).toBe(
      200,
    );
  });

  it("shows only the caller's workspace", async () => {
    const [ws, other] = [await seedWorkspace(), await seedWorkspace()];
    const theirs = await page(other, "?limit=100");
    const mine = new Set((await page(ws, "?limit=100")).data.map((entry) => entry.id));
    expect(theirs.data.length).toBeGreaterThan(0);
    expect(theirs.data.filter((entry) => mine.has(entry.id))).toEqual([]);
    expect((await page(other, `?actorId=${ws.ownerId}`)).data).toEqual([]);
  });

  it("has no route that changes or deletes an entry", async () => {
    const ws = await seedWorkspace();
    const before = await page(ws, "?limit=100");
    const entry = before.data[0] as Entry;
    const answers: string[] = [];
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const all = await call(method, "/v1/manage/audit-log", { token: ws.ownerToken, body: {} });
      const one = await call(method, `/v1/manage/audit-log/${entry.id}`, {
        token: ws.ownerToken,
        body: { action: "agent.created" },
      });
      answers.push(`${method} ${all.status} ${one.status}`);
    }
    expect(answers).toEqual(["POST 405 404", "PUT 405 404", "PATCH 405 404", "DELETE 405 404"]);
    expect(await page(ws, "?limit=100")).toEqual(before);
    // Nor does the document offer one, on the workspace's log or the operator's.
    const document = await expectJson<{ paths: Record<string, object> }>(
      await call("GET", "/openapi.json"),
      200,
    );
    const routes = Object.entries(document.paths)
      .filter(([path]) => path.includes("audit-log"))
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`));
    expect(routes.sort()).toEqual(["get /v1/manage/audit-log", "get /v1/operator/audit-log"]);
  });

  it("keeps entries 400 days: older ones are not shown, and the next write deletes them", async () => {
    const ws = await seedWorkspace();
    const now = Date.now();
    const old = `OLD_${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
    const kept = `KEPT_${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(now - 401 * DAY);
    await putSecret(ws, old, "v");
    vi.setSystemTime(now - 399 * DAY);
    await putSecret(ws, kept, "v");
    const stored = async () => (await d1Tables()).get("audit_log") ?? "";
    expect(await stored()).toContain(old);
    vi.setSystemTime(now);

    // Read before any write at this time: only the 400 days decide what is shown.
    const shown = (await page(ws, "?action=secret.set")).data.map((entry) => entry.target.id);
    expect(shown).toEqual([kept]);
    expect(await stored()).toContain(old);
    await putSecret(ws, "NEW", "v");
    expect(await stored()).not.toContain(old);
    expect(await stored()).toContain(kept);
  });
});
