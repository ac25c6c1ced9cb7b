/**
 * Deleting a workspace (docs/api/manage.md#deleting-a-workspace): `DELETE
 * /v1/operator/workspaces/{id}` removes the workspace's rows from every D1 table and the state of
 * its objects (its link ledger, its workflows' runners, its conversations), and nothing of another
 * workspace. The test fills every D1 table and every kind of object first, and proves the scans
 * find it there, so an empty scan afterwards means the deletion removed it.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import {
  call,
  errorCode,
  eventually,
  expectJson,
  launchBody,
  OPERATOR_TOKEN,
  seedWorkspace,
  type Workspace,
} from "../helpers/api";
import { type Client, connect, createLaunch, open, upgrade } from "../helpers/chat";
import { registerReceiver, storedDeliveries } from "../helpers/events";
import { sessionCookie } from "../helpers/session";
import { d1Tables, storedState } from "../helpers/storage-scan";
import { createWorkflow, hook, putSecret } from "../helpers/workflows";

const remove = (id: string, token = OPERATOR_TOKEN) =>
  call("DELETE", `/v1/operator/workspaces/${id}`, { token });

/** The tables holding any of `needles`, by name. */
async function tablesHolding(needles: string[]): Promise<string[]> {
  const tables = await d1Tables();
  return [...tables].filter(([, text]) => needles.some((n) => text.includes(n))).map(([t]) => t);
}

type Seeded = {
  ws: Workspace;
  link: { id: string; token: string };
  sessionId: string;
  socket: Client;
  spareSocketUrl: string;
  flow: { id: string; url: string };
  /** Ids that only this workspace's rows hold: every D1 table holds one of them. */
  markers: string[];
};

/** A workspace with data in every D1 table and in each kind of object. */
async function seedEverywhere(): Promise<Seeded> {
  const ws = await seedWorkspace();
  const admin = await expectJson<{ member: { id: string } }>(
    await call("POST", "/v1/manage/members", {
      token: ws.ownerToken,
      body: { email: `${crypto.randomUUID()}@example.com`, name: "Ada", role: "admin" },
    }),
    201,
  );
  await sessionCookie(ws.ownerToken); // a sign-in link and the session it opened
  await expectJson(
    await call("POST", "/v1/manage/passkeys/options", { token: ws.ownerToken }),
    200,
  );
  await env.DB.prepare(
    `INSERT INTO passkeys (id, member_id, workspace_id, credential_id, public_key, counter,
      transports, name, created_at) VALUES (?, ?, ?, ?, 'AA', 0, '[]', 'Phone', ?)`,
  )
    .bind(`pk_${crypto.randomUUID()}`, ws.ownerId, ws.workspaceId, crypto.randomUUID(), Date.now())
    .run();
  await putSecret(ws, "DELETED_SOON", "value");
  const receiver = await registerReceiver(ws);
  // Created with an idempotency key (kept by the ledger), then opened and talked in.
  const link = await expectJson<{ id: string; token: string }>(
    await call("POST", "/v1/widget/launches", {
      token: ws.widgetKey,
      body: launchBody(ws),
      headers: { "idempotency-key": crypto.randomUUID() },
    }),
    201,
  );
  const session = await open(link.token);
  const socket = await connect(session.socketUrl as string);
  socket.send({ type: "message", text: "Hello there" });
  await socket.next("message"); // the person's own message, echoed
  await socket.next("message"); // the agent's reply
  const spareSocketUrl = (await open(link.token)).socketUrl as string;
  await createLaunch(ws); // a pending link: the ledger's alarm watches its expiry
  // A run that waits an hour: the runner keeps its state and an alarm.
  const created = await createWorkflow(ws, {
    nodes: [{ type: "webhook" }, { key: "pause", type: "wait", seconds: 3600 }],
    connections: [{ from: "webhook_1", to: "pause" }],
  });
  const flow = { id: created.id, url: created.webhookUrls.webhook_1 as string };
  await expectJson(await hook(flow.url, { body: { n: 1 } }), 200);
  // The link's events reach the receiver: deliveries and their attempts.
  const deliveries = await eventually(async () => {
    const rows = await storedDeliveries(ws.workspaceId);
    return rows.length >= 3 && rows.every((row) => row.attempts > 0) ? rows : undefined;
  });
  // A success is kept on its delivery's row; a resend moves it into an attempt row.
  await expectJson(
    await call(
      "POST",
      `/v1/manage/event-endpoints/${receiver.endpointId}/deliveries/${deliveries[0]?.id}/resend`,
      { token: ws.ownerToken },
    ),
    202,
  );
  return {
    ws,
    link,
    sessionId: session.sessionId,
    socket,
    spareSocketUrl,
    flow,
    markers: [ws.workspaceId, ws.ownerId, admin.member.id, ...deliveries.map((d) => d.id)],
  };
}

let seeded: Seeded;
let other: Workspace;
let otherLink: { id: string };

beforeAll(async () => {
  seeded = await seedEverywhere();
  other = await seedWorkspace();
  otherLink = await createLaunch(other);
});

const ledgerOf = (workspaceId: string) =>
  env.LINK_LEDGER.get(env.LINK_LEDGER.idFromName(workspaceId));
const runnerOf = (workflowId: string) =>
  env.WORKFLOW_RUNNER.get(env.WORKFLOW_RUNNER.idFromName(workflowId));
const conversationOf = (sessionId: string) =>
  env.CONVERSATION.get(env.CONVERSATION.idFromName(sessionId));

describe("DELETE /v1/operator/workspaces/{id}", () => {
  it("removes the workspace from every D1 table and its objects' state, and nothing of another", async () => {
    const { ws, markers } = seeded;
    const everyTable = [...(await d1Tables()).keys()].sort();
    expect(everyTable.length).toBeGreaterThanOrEqual(16);
    // The seed reached every table and every object: the scans below can see what they look for.
    expect((await tablesHolding(markers)).sort()).toEqual(everyTable);
    const objects = [
      ledgerOf(ws.workspaceId),
      runnerOf(seeded.flow.id),
      conversationOf(seeded.sessionId),
    ];
    for (const stub of objects) {
      const state = await storedState(stub);
      expect(state.entries + state.rows).toBeGreaterThan(0);
      expect(state.alarm).not.toBeNull();
    }

    expect((await remove(ws.workspaceId)).status).toBe(204);

    // Its audit log went with it; the one row naming it is the deletion's own entry, in the
    // operator's log (docs/api/manage.md#deleting-a-workspace), holding its id and nothing more.
    expect(await tablesHolding(markers)).toEqual(["audit_log"]);
    const naming = ((await d1Tables()).get("audit_log") ?? "")
      .split("\n")
      .filter((row) => markers.some((marker) => row.includes(marker)));
    expect(naming).toEqual([expect.stringContaining("\tworkspace.deleted\tworkspace\t")]);
    const operatorLog = await expectJson<{ data: { action: string; target: { id: string } }[] }>(
      await call("GET", "/v1/operator/audit-log?action=workspace.deleted&limit=100", {
        token: OPERATOR_TOKEN,
      }),
      200,
    );
    expect(operatorLog.data.map((entry) => entry.target.id)).toContain(ws.workspaceId);
    for (const stub of objects) {
      const state = await storedState(stub);
      expect({ entries: state.entries, rows: state.rows, alarm: state.alarm }).toEqual({
        entries: 0,
        rows: 0,
        alarm: null,
      });
    }
    // The other workspace keeps its rows and its links.
    expect(await tablesHolding([other.workspaceId])).toEqual(
      expect.arrayContaining(["workspaces", "members", "agents", "links", "widget_keys"]),
    );
    const kept = await call("GET", `/v1/widget/launches/${otherLink.id}`, {
      token: other.widgetKey,
    });
    expect(kept.status).toBe(200);
  });

  it("leaves nothing of the workspace that answers: credentials, links, chats and webhooks", async () => {
    const { ws, link, socket } = seeded;
    // The open chat was told, and closed.
    expect((await socket.next("revoked")).type).toBe("revoked");
    expect((await socket.closed).code).toBe(4403);
    // The widget key was cached by the Worker and the ledger as live: both know better now.
    const lookUp = await call("GET", `/v1/widget/launches/${link.id}`, { token: ws.widgetKey });
    expect([lookUp.status, await errorCode(lookUp)]).toEqual([401, "invalid_key"]);
    const create = await call("POST", "/v1/widget/launches", {
      token: ws.widgetKey,
      body: launchBody(ws),
    });
    expect(create.status).toBe(401);
    expect((await call("GET", "/v1/manage/agents", { token: ws.ownerToken })).status).toBe(401);
    expect((await call("POST", "/v1/chat/sessions", { body: { token: link.token } })).status).toBe(
      404,
    );
    // A socket ticket handed out before the deletion opens nothing.
    expect((await upgrade(seeded.spareSocketUrl)).status).toBe(410);
    expect((await hook(seeded.flow.url, { body: {} })).status).toBe(404);
  });

  it("answers 404 not_found for an unknown workspace, and for one deleted already", async () => {
    const ws = await seedWorkspace();
    expect((await remove(ws.workspaceId)).status).toBe(204);
    const again = await remove(ws.workspaceId);
    expect([again.status, await errorCode(again)]).toEqual([404, "not_found"]);
    const unknown = await remove("ws_doesnotexist");
    expect([unknown.status, await errorCode(unknown)]).toEqual([404, "not_found"]);
  });

  it("takes only the operator token: 401 invalid_key for a member token or none", async () => {
    const ws = await seedWorkspace();
    for (const token of [ws.ownerToken, ws.widgetKey, "", "not-the-operator-token"]) {
      const refused = await remove(ws.workspaceId, token);
      expect([refused.status, await errorCode(refused)]).toEqual([401, "invalid_key"]);
    }
    const agents = await call("GET", "/v1/manage/agents", { token: ws.ownerToken });
    expect(agents.status).toBe(200);
  });
});
