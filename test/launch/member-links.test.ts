/**
 * Links for members (docs/api/manage.md#links): the launch list's filters and paging over the whole
 * workspace, the look-up with the conversation's messages (which widget keys never see), and
 * revoke and end for Owners and Admins only, through the same rules as the launch API.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { linkLedger } from "../../src/launch/ledger/client";
import {
  call,
  errorCode,
  expectJson,
  keyForAnotherAgent,
  seedWorkspace,
  type Workspace,
} from "../helpers/api";
import { connect, createLaunch, lookUp, open } from "../helpers/chat";

type Link = {
  id: string;
  status: string;
  flowId: string;
  participant: { name: string | null; externalId: string | null };
  metadata: Record<string, string>;
};
type Page = { data: Link[]; hasMore: boolean; nextCursor: string | null };
type Detail = Link & {
  conversation: {
    sessionId: string;
    status: string;
    endedAt: string | null;
    messages: { id: string; role: string; text: string; at: string; blocks?: unknown[] }[];
  } | null;
};

const list = (ws: Workspace, query = "", token = ws.ownerToken) =>
  call("GET", `/v1/manage/links${query}`, { token });
const detail = (ws: Workspace, id: string, token = ws.ownerToken) =>
  call("GET", `/v1/manage/links/${id}`, { token });

/** A member of `ws` with the given role; returns its token. */
async function memberOf(ws: Workspace, role: "admin" | "member"): Promise<string> {
  const created = await expectJson<{ memberToken: string }>(
    await call("POST", "/v1/manage/members", {
      token: ws.ownerToken,
      body: { email: `${crypto.randomUUID()}@example.com`, name: "M", role },
    }),
    201,
  );
  return created.memberToken;
}

describe("GET /v1/manage/links", () => {
  it("lists every link of the workspace, newest first, with the launch list's filters and paging", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const { agentId: otherAgent, key: limitedKey } = await keyForAnotherAgent(ws);
    const channel = await expectJson<{ id: string }>(
      await call("POST", `/v1/manage/agents/${otherAgent}/channels`, {
        token: ws.ownerToken,
        body: { type: "widget", name: "Site" },
      }),
      201,
    );
    const ada = await createLaunch(ws, {
      participant: { name: "Ada", externalId: "crm-1" },
      metadata: { orderId: "1042" },
    });
    const bob = await createLaunch(ws, { participant: { name: "Bob", externalId: "crm-2" } });
    // A link of another agent, made with a key limited to it: members see it all the same.
    const responder = await expectJson<{ id: string }>(
      await call("POST", "/v1/widget/launches", {
        token: limitedKey,
        body: { flowId: otherAgent, channelId: channel.id, participant: { externalId: "crm-1" } },
      }),
      201,
    );
    await createLaunch(other, { participant: { externalId: "crm-1" } });
    await open(bob.token);

    const all = await expectJson<Page>(await list(ws), 200);
    expect(all.data.map((link) => link.id)).toEqual([responder.id, bob.id, ada.id]);
    expect(all).toMatchObject({ hasMore: false, nextCursor: null });
    expect(all.data[2]).toMatchObject({
      participant: { name: "Ada", externalId: "crm-1" },
      metadata: { orderId: "1042" },
      status: "pending",
    });

    const byPerson = await expectJson<Page>(await list(ws, "?externalId=crm-1"), 200);
    expect(byPerson.data.map((link) => link.id)).toEqual([responder.id, ada.id]);
    const active = await expectJson<Page>(await list(ws, "?status=active"), 200);
    expect(active.data.map((link) => link.id)).toEqual([bob.id]);
    const byAgent = await expectJson<Page>(await list(ws, `?flowId=${otherAgent}`), 200);
    expect(byAgent.data.map((link) => link.id)).toEqual([responder.id]);

    const first = await expectJson<Page>(await list(ws, "?limit=2"), 200);
    expect(first.data.map((link) => link.id)).toEqual([responder.id, bob.id]);
    expect(first.hasMore).toBe(true);
    const next = await expectJson<Page>(
      await list(ws, `?limit=2&cursor=${encodeURIComponent(first.nextCursor as string)}`),
      200,
    );
    expect(next.data.map((link) => link.id)).toEqual([ada.id]);
    expect(next).toMatchObject({ hasMore: false, nextCursor: null });
  });

  it("lets a member read, and refuses unknown parameters and foreign cursors", async () => {
    const ws = await seedWorkspace();
    await createLaunch(ws);
    const member = await memberOf(ws, "member");
    expect((await expectJson<Page>(await list(ws, "", member), 200)).data).toHaveLength(1);
    const unknown = await list(ws, "?agent=x");
    expect(unknown.status).toBe(400);
    expect(await errorCode(unknown)).toBe("invalid_request");
    expect(await errorCode(await list(ws, "?cursor=nonsense"))).toBe("invalid_request");
  });
});

describe("GET /v1/manage/links/{id}", () => {
  it("shows the link as the look-up does, never its token or parameters, and the messages once opened", async () => {
    const ws = await seedWorkspace();
    const link = await createLaunch(ws, {
      parameters: { plan: "secret-plan-name" },
      participant: { name: "Ada", externalId: "crm-1" },
      globalTask: "a task only the agent sees",
      metadata: { orderId: "1042" },
    });
    const member = await memberOf(ws, "member");
    const pending = await detail(ws, link.id, member);
    const pendingText = await pending.clone().text();
    const before = await expectJson<Detail>(pending, 200);
    expect(before).toMatchObject({
      id: link.id,
      status: "pending",
      participant: { name: "Ada", externalId: "crm-1" },
      metadata: { orderId: "1042" },
      conversation: null,
    });
    for (const hidden of [link.token, "secret-plan-name", "a task only the agent sees"]) {
      expect(pendingText).not.toContain(hidden);
    }
    expect(Object.keys(before).sort()).toEqual(Object.keys(await lookUp(ws, link.id)).sort());

    const session = await open(link.token);
    const client = await connect(session.socketUrl as string);
    client.send({ type: "message", text: "Where is my order?" });
    await client.next("message"); // the echo of the person's message
    await client.next("message"); // the agent's answer

    const after = await expectJson<Detail>(await detail(ws, link.id, member), 200);
    expect(after.status).toBe("active");
    expect(after.conversation).toMatchObject({
      sessionId: session.sessionId,
      status: "in-progress",
      endedAt: null,
    });
    const messages = after.conversation?.messages ?? [];
    expect(messages.map((m) => [m.role, m.text])).toEqual([
      ["agent", "Hi Ada!"],
      ["person", "Where is my order?"],
      ["agent", expect.stringContaining("Where is my order?")],
    ]);
    for (const message of messages) expect(new Date(message.at).toISOString()).toBe(message.at);
    // An agent's messages carry the Markdown blocks the chat renders; the person's text stays text.
    expect(messages[0]?.blocks).toEqual([{ type: "p", spans: [{ text: "Hi Ada!" }] }]);
    expect(messages[1]).not.toHaveProperty("blocks");
    expect(messages[2]?.blocks?.length).toBeGreaterThan(0);
    client.socket.close();
  });

  it("keeps conversations from widget keys: 403 here, and no messages in the launch look-up", async () => {
    const ws = await seedWorkspace();
    const link = await createLaunch(ws);
    await open(link.token);
    const refused = await detail(ws, link.id, ws.widgetKey);
    expect(refused.status).toBe(403);
    expect(await errorCode(refused)).toBe("insufficient_scope");
    const looked = await lookUp(ws, link.id);
    expect(looked.conversation).not.toBeNull();
    expect(looked.conversation).not.toHaveProperty("messages");
    expect(JSON.stringify(looked)).not.toContain("Hi ");
  });

  it("answers 404 for another workspace's link and an unknown id", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const link = await createLaunch(ws);
    expect(await errorCode(await detail(other, link.id))).toBe("not_found");
    expect(await errorCode(await detail(ws, "lnk_unknown"))).toBe("not_found");
  });
});

describe("DELETE /v1/manage/links/{id} and POST /v1/manage/links/{id}/end", () => {
  it("lets an admin revoke: the open chat closes, the slot frees, a repeat changes nothing", async () => {
    const ws = await seedWorkspace();
    const admin = await memberOf(ws, "admin");
    const pending = await createLaunch(ws);
    const ledger = linkLedger(env, ws.workspaceId);
    expect((await ledger.usage(ws.workspaceId)).pendingLinks).toBe(1);
    const revoke = (id: string) => call("DELETE", `/v1/manage/links/${id}`, { token: admin });
    expect((await revoke(pending.id)).status).toBe(204);
    expect((await ledger.usage(ws.workspaceId)).pendingLinks).toBe(0);
    expect((await lookUp(ws, pending.id)).status).toBe("revoked");
    expect((await revoke(pending.id)).status).toBe(204);

    const chatting = await createLaunch(ws);
    const client = await connect((await open(chatting.token)).socketUrl as string);
    expect((await revoke(chatting.id)).status).toBe(204);
    await client.next("revoked");
    expect((await client.closed).code).toBe(4403);
  });

  it("lets an owner end an open conversation without revoking the link, as the launch API does", async () => {
    const ws = await seedWorkspace();
    const end = (id: string) =>
      call("POST", `/v1/manage/links/${id}/end`, { token: ws.ownerToken });
    const link = await createLaunch(ws);
    const client = await connect((await open(link.token)).socketUrl as string);
    expect((await end(link.id)).status).toBe(204);
    await client.next("ended");
    expect((await client.closed).code).toBe(4410);
    const ended = await expectJson<Detail>(await detail(ws, link.id), 200);
    expect(ended.status).toBe("ended");
    expect(ended.conversation).toMatchObject({ status: "ended", endedAt: expect.any(String) });
    expect((await open(link.token)).status).toBe("ended");
    expect((await end(link.id)).status).toBe(204);

    const unopened = await createLaunch(ws);
    const refused = await end(unopened.id);
    expect(refused.status).toBe(409);
    expect(await errorCode(refused)).toBe("link_not_open");
  });

  it("works for links whose widget key was revoked: members answer for no key", async () => {
    const ws = await seedWorkspace();
    const link = await createLaunch(ws);
    await open(link.token);
    await call("DELETE", `/v1/manage/widget-keys/${ws.widgetKeyId}`, { token: ws.ownerToken });
    const path = `/v1/manage/links/${link.id}`;
    expect((await call("POST", `${path}/end`, { token: ws.ownerToken })).status).toBe(204);
    expect((await call("DELETE", path, { token: ws.ownerToken })).status).toBe(204);
    expect((await expectJson<Detail>(await detail(ws, link.id), 200)).status).toBe("revoked");
  });

  it("refuses members (403 insufficient_scope) and another workspace's owner (404)", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const member = await memberOf(ws, "member");
    const link = await createLaunch(ws);
    await open(link.token);
    const path = `/v1/manage/links/${link.id}`;
    for (const [method, url] of [
      ["DELETE", path],
      ["POST", `${path}/end`],
    ] as const) {
      const refused = await call(method, url, { token: member });
      expect(refused.status).toBe(403);
      expect(await errorCode(refused)).toBe("insufficient_scope");
      const foreign = await call(method, url, { token: other.ownerToken });
      expect(foreign.status).toBe(404);
      expect(await errorCode(foreign)).toBe("not_found");
    }
    expect((await lookUp(ws, link.id)).status).toBe("active");
  });
});
