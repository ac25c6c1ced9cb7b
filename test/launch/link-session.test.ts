/**
 * The session of a link not yet opened (docs/workflows.md#send-message): the ledger gives a
 * pending link one, keeps it when the link opens, and a revocation reaches its conversation
 * without recording an end of a conversation that never started.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { linkLedger } from "../../src/launch/ledger/client";
import { call, seedWorkspace, type Workspace } from "../helpers/api";
import { createLaunch, lookUp, open } from "../helpers/chat";
import { registerReceiver, storedEvents } from "../helpers/events";

let ws: Workspace;
beforeAll(async () => {
  ws = await seedWorkspace();
  await registerReceiver(ws);
});

const ledger = () => linkLedger(env, ws.workspaceId);

describe("linkSession", () => {
  it("gives a pending link a session once, keeps it pending, and the opening keeps it", async () => {
    const link = await createLaunch(ws);
    const first = await ledger().linkSession(ws.workspaceId, link.id, Date.now());
    expect(first).toMatchObject({ ok: true, value: { status: "pending" } });
    const sessionId = first.ok ? first.value.sessionId : null;
    expect(sessionId).toMatch(/^ses_/);
    const again = await ledger().linkSession(ws.workspaceId, link.id, Date.now());
    expect(again.ok && again.value.sessionId).toBe(sessionId);
    expect(await lookUp(ws, link.id)).toMatchObject({ status: "pending", conversation: null });

    expect((await open(link.token)).sessionId).toBe(sessionId);
    const opened = await ledger().linkSession(ws.workspaceId, link.id, Date.now());
    expect(opened).toMatchObject({ ok: true, value: { status: "active", sessionId } });
    const started = (await storedEvents(ws.workspaceId)).filter(
      (event) => event.link_id === link.id && event.type === "conversation.started",
    );
    expect(started).toHaveLength(1);
  });

  it("gives none to an expired link, and refuses another workspace's", async () => {
    const link = await createLaunch(ws);
    const later = Date.now() + 8 * 86_400_000;
    expect(await ledger().linkSession(ws.workspaceId, link.id, later)).toMatchObject({
      ok: true,
      value: { status: "expired", sessionId: null },
    });
    const other = await seedWorkspace();
    expect(
      await linkLedger(env, other.workspaceId).linkSession(other.workspaceId, link.id, Date.now()),
    ).toMatchObject({
      ok: false,
      refusal: { code: "not_found" },
    });
  });

  it("revoking a pending link with a session records no conversation.ended", async () => {
    const link = await createLaunch(ws);
    await ledger().linkSession(ws.workspaceId, link.id, Date.now());
    await call("DELETE", `/v1/widget/launches/${link.id}`, { token: ws.widgetKey });
    const types = (await storedEvents(ws.workspaceId))
      .filter((event) => event.link_id === link.id)
      .map((event) => event.type);
    expect(types).toEqual(["link.created", "link.revoked"]);
  });

  it("erasing a pending link with a session reaches its conversation", async () => {
    const link = await createLaunch(ws);
    await ledger().linkSession(ws.workspaceId, link.id, Date.now());
    expect(await ledger().eraseLink(ws.workspaceId, link.id)).toMatchObject({ conversation: true });
  });
});
