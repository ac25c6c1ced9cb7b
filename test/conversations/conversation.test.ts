import { evictDurableObject, runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { conversation } from "../../src/conversations/conversation/client";
import { IDLE_TIMEOUT_MS } from "../../src/conversations/protocol";
import { call, expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import { connect, createLaunch, lookUp, open } from "../helpers/chat";
import { eventsOfTypes, registerReceiver } from "../helpers/events";
import { createWorkflow, type ExecutionView, putSecret } from "../helpers/workflows";

async function executions(ws: Workspace, workflowId: string): Promise<ExecutionView[]> {
  const page = await expectJson<{ data: ExecutionView[] }>(
    await call("GET", `/v1/manage/workflows/${workflowId}/executions`, { token: ws.ownerToken }),
    200,
  );
  return page.data;
}

/** Waits (bounded) until `check` passes; events are delivered in the background. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const value = await read();
    if (check(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return read();
}

describe("ending a conversation", () => {
  it("the person ends it: sockets get `ended`, the link is ended, reopening is read-only", async () => {
    const ws = await seedWorkspace();
    const link = await createLaunch(ws);
    const session = await open(link.token);
    const client = await connect(session.socketUrl as string);
    client.send({ type: "end" });
    expect((await client.next("ended")).type).toBe("ended");
    expect((await client.closed).code).toBe(4410);

    const looked = await eventually(
      () => lookUp(ws, link.id),
      (value) => value.status === "ended",
    );
    expect(looked.status).toBe("ended");
    expect(looked.conversation?.status).toBe("ended");
    expect(looked.conversation?.endedAt).toMatch(/Z$/);

    const reopened = await open(link.token);
    expect(reopened.status).toBe("ended");
    expect(reopened.socketUrl).toBeUndefined();
    expect(reopened.messages).toEqual(session.messages);
  });

  it("the agent ends it when the person says goodbye (scripted brain)", async () => {
    const ws = await seedWorkspace();
    const link = await createLaunch(ws, { participant: { name: "Ada" } });
    const client = await connect((await open(link.token)).socketUrl as string);
    client.send({ type: "message", text: "Thanks, goodbye" });
    await client.next("message");
    expect((await client.next("message")).message?.text).toBe(
      "Goodbye, Ada! This chat is now closed.",
    );
    await client.next("ended");
    const looked = await eventually(
      () => lookUp(ws, link.id),
      (value) => value.status === "ended",
    );
    expect(looked.conversation?.status).toBe("ended");
  });

  it("ends after 30 minutes without a message (alarm), not before", async () => {
    const ws = await seedWorkspace();
    const link = await createLaunch(ws);
    const session = await open(link.token);
    const stub = conversation(env, session.sessionId);
    const openedAt = Date.now();
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      // One minute short of idle: the alarm changes nothing.
      vi.setSystemTime(openedAt + IDLE_TIMEOUT_MS - 60_000);
      await runDurableObjectAlarm(stub);
      expect((await lookUp(ws, link.id)).status).toBe("active");
      vi.setSystemTime(openedAt + IDLE_TIMEOUT_MS + 1);
      await runDurableObjectAlarm(stub);
    } finally {
      vi.useRealTimers();
    }
    const looked = await eventually(
      () => lookUp(ws, link.id),
      (view) => view.status === "ended",
    );
    expect(looked.conversation?.endedAt).not.toBeNull();
    // Once its notifications are delivered, an ended conversation needs no alarm.
    const pending = await eventually(
      () => runDurableObjectAlarm(stub),
      (ran) => !ran,
    );
    expect(pending).toBe(false);
  });

  it("revocation closes an open chat at once and the link stops resuming", async () => {
    const ws = await seedWorkspace();
    const link = await createLaunch(ws);
    const client = await connect((await open(link.token)).socketUrl as string);
    expect(
      (await call("DELETE", `/v1/widget/launches/${link.id}`, { token: ws.widgetKey })).status,
    ).toBe(204);
    expect((await client.next("revoked")).type).toBe("revoked");
    expect((await client.closed).code).toBe(4403);
    const looked = await lookUp(ws, link.id);
    expect(looked.status).toBe("revoked");
    expect(looked.conversation?.status).toBe("ended");
    const again = await call("POST", "/v1/chat/sessions", { body: { token: link.token } });
    expect(again.status).toBe(403);
  });
});

describe("durability", () => {
  it("keeps the history through an eviction and accepts a new socket afterwards", async () => {
    const ws = await seedWorkspace();
    const link = await createLaunch(ws);
    const first = await open(link.token);
    const client = await connect(first.socketUrl as string);
    client.send({ type: "message", text: "remember me" });
    await client.next("message");
    await client.next("message");
    client.socket.close();
    await evictDurableObject(conversation(env, first.sessionId));

    const resumed = await open(link.token);
    expect(resumed.messages.map((m) => m.text)).toContain("remember me");
    expect(resumed.messages).toHaveLength(3);
    const again = await connect(resumed.socketUrl as string);
    again.send({ type: "message", text: "still here" });
    expect((await again.next("message")).message?.text).toBe("still here");
  });
});

describe("workflow events (spec 6)", () => {
  it("conversation.started and .ended start running workflows of that agent, with externalId", async () => {
    const ws = await seedWorkspace();
    const trigger = { type: "conversation_event", agentId: ws.agentId };
    const listening = await createWorkflow(ws, {
      nodes: [
        trigger,
        {
          key: "note",
          type: "set",
          fields: { who: "{{conversation_event_1.participant.externalId}}" },
        },
      ],
      connections: [{ from: "conversation_event_1", to: "note" }],
    });
    const endedOnly = await createWorkflow(ws, {
      nodes: [{ ...trigger, events: ["conversation.ended"] }],
    });
    const stopped = await createWorkflow(ws, { nodes: [trigger] }, { start: false });

    const link = await createLaunch(ws, { participant: { name: "Ada", externalId: "crm-42" } });
    const session = await open(link.token);
    const started = await eventually(
      () => executions(ws, listening.id),
      (list) => list.length === 1,
    );
    expect(started).toHaveLength(1);
    const output = started[0]?.nodes[0]?.output as Record<string, unknown>;
    expect(output).toMatchObject({
      event: "conversation.started",
      launchId: link.id,
      sessionId: session.sessionId,
      flowId: ws.agentId,
      participant: { name: "Ada", externalId: "crm-42" },
    });
    expect(output.at).toMatch(/Z$/);
    expect(started[0]?.nodes[1]?.output).toEqual({ who: "crm-42" });
    // Reopening is not a new start.
    await open(link.token);

    const client = await connect((await open(link.token)).socketUrl as string);
    client.send({ type: "end" });
    await client.next("ended");
    const both = await eventually(
      () => executions(ws, listening.id),
      (list) => list.length === 2,
    );
    expect(both[0]?.nodes[0]?.output).toMatchObject({
      event: "conversation.ended",
      reason: "person",
      participant: { externalId: "crm-42" },
    });
    const endedRuns = await eventually(
      () => executions(ws, endedOnly.id),
      (list) => list.length === 1,
    );
    expect(endedRuns).toHaveLength(1);
    expect(await executions(ws, stopped.id)).toHaveLength(0);
  });

  it("revoking an open link: the endpoint's conversation.ended and the workflow's trigger say `server`", async () => {
    const ws = await seedWorkspace();
    const receiver = await registerReceiver(ws);
    const flow = await createWorkflow(ws, {
      nodes: [{ type: "conversation_event", agentId: ws.agentId, events: ["conversation.ended"] }],
    });
    const link = await createLaunch(ws);
    const client = await connect((await open(link.token)).socketUrl as string);
    expect(
      (await call("DELETE", `/v1/widget/launches/${link.id}`, { token: ws.widgetKey })).status,
    ).toBe(204);
    await client.next("revoked");
    const runs = await eventually(
      () => executions(ws, flow.id),
      (list) => list.length === 1,
    );
    const trigger = runs[0]?.nodes[0]?.output as Record<string, unknown>;
    const events = await eventsOfTypes(receiver, ["conversation.ended"]);
    // One fact, one word: docs/events.md names revoking an open link `server`.
    expect(events.get("conversation.ended")?.data.reason).toBe("server");
    expect(trigger).toMatchObject({ event: "conversation.ended", reason: "server" });
  });

  it("a repeated delivery of one event starts its execution once", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, {
      nodes: [{ type: "conversation_event", agentId: ws.agentId }],
    });
    const runner = env.WORKFLOW_RUNNER.get(env.WORKFLOW_RUNNER.idFromName(flow.id));
    const call1 = {
      workflowId: flow.id,
      nodeKey: "conversation_event_1",
      executionId: "exe_00000000000000000000000000000001",
      event: "conversation.started" as const,
      agentId: ws.agentId,
      output: { event: "conversation.started" },
    };
    // Two deliveries at once, then a late one: one execution.
    const first = await Promise.all([runner.startFromEvent(call1), runner.startFromEvent(call1)]);
    expect(first.sort()).toEqual([false, true]);
    expect(await runner.startFromEvent(call1)).toBe(false);
    expect(
      await runner.startFromEvent({ ...call1, executionId: "exe_2", agentId: "agt_other" }),
    ).toBe(false);
    expect(await executions(ws, flow.id)).toHaveLength(1);
  });

  it("an undelivered event waits in the outbox and the alarm delivers it", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, {
      nodes: [
        { type: "conversation_event", agentId: ws.agentId, events: ["conversation.started"] },
      ],
    });
    // The runner cannot read the workspace's secrets (a damaged row), so delivery fails.
    await putSecret(ws, "OUTBOX", "value");
    await env.DB.prepare("UPDATE secrets SET ciphertext = 'damaged' WHERE workspace_id = ?")
      .bind(ws.workspaceId)
      .run();
    vi.useFakeTimers({ toFake: ["Date"] });
    const at = Date.now();
    vi.setSystemTime(at);
    try {
      const link = await createLaunch(ws, { participant: { externalId: "crm-7" } });
      const session = await open(link.token);
      const stub = conversation(env, session.sessionId);
      await new Promise((resolve) => setTimeout(resolve, 50));
      await runDurableObjectAlarm(stub);
      expect(await executions(ws, flow.id)).toHaveLength(0);

      // Repaired (the runners are told), and the retry is due: the alarm delivers it once.
      await putSecret(ws, "OUTBOX", "value");
      vi.setSystemTime(at + 60_001);
      await runDurableObjectAlarm(stub);
      await eventually(
        () => executions(ws, flow.id),
        (runs) => runs.length === 1,
      );
    } finally {
      vi.useRealTimers();
    }
    const runs = await executions(ws, flow.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]?.nodes[0]?.output).toMatchObject({ participant: { externalId: "crm-7" } });
  });
});
