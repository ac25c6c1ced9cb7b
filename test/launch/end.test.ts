/**
 * Ending a conversation from the customer's server (docs/api/launch.md#ending-a-conversation):
 * `POST /v1/widget/launches/{id}/end` ends it without revoking the link; the person's open chat
 * learns it at once and the conversation stays readable; `conversation.ended` says `server`.
 */
import { describe, expect, it } from "vitest";
import {
  call,
  expectJson,
  keyForAnotherAgent,
  seedWorkspace,
  type Workspace,
} from "../helpers/api";
import { connect, createLaunch, lookUp, open } from "../helpers/chat";
import { createWorkflow, type ExecutionView } from "../helpers/workflows";

const end = (ws: Workspace, id: string, token = ws.widgetKey) =>
  call("POST", `/v1/widget/launches/${id}/end`, { token });

async function endedRuns(ws: Workspace, workflowId: string): Promise<ExecutionView[]> {
  for (let i = 0; i < 100; i++) {
    const page = await expectJson<{ data: ExecutionView[] }>(
      await call("GET", `/v1/manage/workflows/${workflowId}/executions`, { token: ws.ownerToken }),
      200,
    );
    if (page.data.length > 0) return page.data;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return [];
}

describe("POST /v1/widget/launches/{id}/end", () => {
  it("ends an open conversation: the chat is told, the link is ended, the event says server", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, {
      nodes: [{ type: "conversation_event", agentId: ws.agentId, events: ["conversation.ended"] }],
    });
    const link = await createLaunch(ws, { participant: { externalId: "crm-9" } });
    const client = await connect((await open(link.token)).socketUrl as string);

    const response = await end(ws, link.id);
    expect(response.status).toBe(204);
    await client.next("ended");
    expect((await client.closed).code).toBe(4410);

    const looked = (await lookUp(ws, link.id)) as {
      status: string;
      conversation: { status: string; endedAt: string | null };
    };
    expect(looked.status).toBe("ended");
    expect(looked.conversation).toMatchObject({ status: "ended", endedAt: expect.any(String) });
    // Not revoked: the person can still read it until the link expires.
    const reopened = await open(link.token);
    expect(reopened.status).toBe("ended");
    expect(reopened.socketUrl).toBeUndefined();

    const runs = await endedRuns(ws, flow.id);
    expect(runs[0]?.nodes[0]?.output).toMatchObject({
      event: "conversation.ended",
      reason: "server",
      participant: { externalId: "crm-9" },
    });
    // Repeated: nothing left to end.
    expect((await end(ws, link.id)).status).toBe(204);
  });

  it("refuses a link nobody opened (409 link_not_open), and answers 204 for a revoked one", async () => {
    const ws = await seedWorkspace();
    const link = await createLaunch(ws);
    const refused = await expectJson<{ error: { code: string } }>(await end(ws, link.id), 409);
    expect(refused.error.code).toBe("link_not_open");
    expect(((await lookUp(ws, link.id)) as { status: string }).status).toBe("pending");
    await call("DELETE", `/v1/widget/launches/${link.id}`, { token: ws.widgetKey });
    expect((await end(ws, link.id)).status).toBe(204);
    expect(((await lookUp(ws, link.id)) as { status: string }).status).toBe("revoked");
  });

  it("is scoped like the look-up: 404 for another workspace's link, 403 for a key of other agents", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const link = await createLaunch(ws);
    await open(link.token);
    expect((await end(other, link.id, other.widgetKey)).status).toBe(404);
    const limited = await keyForAnotherAgent(ws);
    const forbidden = await expectJson<{ error: { code: string } }>(
      await end(ws, link.id, limited.key),
      403,
    );
    expect(forbidden.error.code).toBe("forbidden_flow");
    expect(((await lookUp(ws, link.id)) as { status: string }).status).toBe("active");
  });
});
