/**
 * Replays (docs/webhooks.md#replay): a new execution with the same trigger input, on the original
 * or the current definition; bulk replays of failed executions in the background, surviving a
 * restart of the runner.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { call, errorCode, expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import {
  createWorkflow,
  type ExecutionView,
  execution,
  hook,
  putSecret,
} from "../helpers/workflows";

type Replayed = ExecutionView & { replayOf: string | null };

const replay = (ws: Workspace, workflowId: string, executionId: string, body: object = {}) =>
  call("POST", `/v1/manage/workflows/${workflowId}/executions/${executionId}/replay`, {
    token: ws.ownerToken,
    body,
  });

const outputOf = (record: ExecutionView, key: string) =>
  record.nodes.find((run) => run.key === key)?.output;

const listAll = async (ws: Workspace, workflowId: string) =>
  (
    await expectJson<{ data: Replayed[] }>(
      await call("GET", `/v1/manage/workflows/${workflowId}/executions?limit=100`, {
        token: ws.ownerToken,
      }),
      200,
    )
  ).data;

function definition(label: string) {
  return {
    nodes: [
      { type: "webhook" },
      {
        key: "check",
        type: "condition",
        left: "{{webhook_1.body.token}}",
        operator: "equals",
        right: "{{secrets.TOKEN}}",
      },
      { key: "out", type: "set", fields: { label, n: "{{webhook_1.body.n}}" } },
    ],
    connections: [
      { from: "webhook_1", to: "check" },
      { from: "check", to: "out", branch: "true" },
    ],
  };
}

describe("replaying an execution", () => {
  it("runs the same input on the original or the current definition, secrets and all", async () => {
    const ws = await seedWorkspace();
    await putSecret(ws, "TOKEN", "tok-123456");
    const flow = await createWorkflow(ws, definition("v1"));
    const sent = await hook(flow.webhookUrls.webhook_1 as string, {
      body: { token: "tok-123456", n: 7 },
    });
    const { executionId } = await expectJson<{ executionId: string }>(sent, 200);
    const first = await execution(ws, flow.id, executionId);
    // The record shows the token redacted; the replay still gets the call as it was.
    expect(JSON.stringify(first)).not.toContain("tok-123456");
    expect(outputOf(first, "out")).toEqual({ label: "v1", n: 7 });

    const replace = await call("PUT", `/v1/manage/workflows/${flow.id}`, {
      token: ws.ownerToken,
      body: { name: "Changed", slug: flow.slug, ...definition("v2") },
    });
    expect(replace.status).toBe(200);

    const original = await expectJson<Replayed>(await replay(ws, flow.id, executionId), 201);
    expect(original.replayOf).toBe(executionId);
    expect(original.id).not.toBe(executionId);
    const current = await expectJson<Replayed>(
      await replay(ws, flow.id, executionId, { definition: "current" }),
      201,
    );
    const settled = async (id: string) =>
      vi.waitFor(async () => {
        const record = await execution(ws, flow.id, id);
        if (record.status === "running") throw new Error("running");
        return record;
      });
    expect(outputOf(await settled(original.id), "out")).toEqual({ label: "v1", n: 7 });
    expect(outputOf(await settled(current.id), "out")).toEqual({ label: "v2", n: 7 });
    const listed = await listAll(ws, flow.id);
    expect(listed.find((record) => record.id === current.id)?.replayOf).toBe(executionId);
    expect(listed.find((record) => record.id === executionId)?.replayOf).toBeNull();
  });

  it("replays on the original definition with no body, an empty one or `{}` (the documented default)", async () => {
    const ws = await seedWorkspace();
    await putSecret(ws, "TOKEN", "tok-123456");
    const flow = await createWorkflow(ws, definition("v1"));
    const sent = await hook(flow.webhookUrls.webhook_1 as string, {
      body: { token: "tok-123456", n: 3 },
    });
    const { executionId } = await expectJson<{ executionId: string }>(sent, 200);
    await execution(ws, flow.id, executionId);
    const replace = await call("PUT", `/v1/manage/workflows/${flow.id}`, {
      token: ws.ownerToken,
      body: { name: "Changed", slug: flow.slug, ...definition("v2") },
    });
    expect(replace.status).toBe(200);
    const path = `/v1/manage/workflows/${flow.id}/executions/${executionId}/replay`;
    const answers = [
      await call("POST", path, { token: ws.ownerToken }),
      await call("POST", path, { token: ws.ownerToken, body: "" }),
      await call("POST", path, {
        token: ws.ownerToken,
        body: "",
        headers: { "content-type": "application/json" },
      }),
      await replay(ws, flow.id, executionId, {}),
    ];
    for (const answer of answers) {
      const replayed = await expectJson<Replayed>(answer, 201);
      expect(replayed.replayOf).toBe(executionId);
      const record = await vi.waitFor(async () => {
        const found = await execution(ws, flow.id, replayed.id);
        if (found.status === "running") throw new Error("running");
        return found;
      });
      expect(outputOf(record, "out")).toEqual({ label: "v1", n: 3 });
    }
    // A body that is there is still checked.
    const bad = await call("POST", path, { token: ws.ownerToken, body: { definition: "newest" } });
    expect(await errorCode(bad)).toBe("invalid_request");
  });

  it("refuses what cannot be replayed, and members who cannot change workflows", async () => {
    const ws = await seedWorkspace();
    await putSecret(ws, "TOKEN", "t");
    const flow = await createWorkflow(ws, definition("v1"));
    const sent = await hook(flow.webhookUrls.webhook_1 as string, { body: { n: 1 } });
    const { executionId } = await expectJson<{ executionId: string }>(sent, 200);
    const renamed = {
      nodes: [
        { type: "webhook", key: "hook_2" },
        { key: "out", type: "set", fields: {} },
      ],
      connections: [{ from: "hook_2", to: "out" }],
    };
    await expectJson(
      await call("PUT", `/v1/manage/workflows/${flow.id}`, {
        token: ws.ownerToken,
        body: { name: "Renamed", slug: flow.slug, ...renamed },
      }),
      200,
    );
    const gone = await replay(ws, flow.id, executionId, { definition: "current" });
    expect(gone.status).toBe(409);
    expect(await errorCode(gone)).toBe("replay_unavailable");
    expect((await replay(ws, flow.id, executionId)).status).toBe(201);
    expect(await errorCode(await replay(ws, flow.id, "exe_unknown"))).toBe("not_found");
    const bad = await replay(ws, flow.id, executionId, { definition: "newest" });
    expect(bad.status).toBe(400);
    const member = await expectJson<{ memberToken: string }>(
      await call("POST", "/v1/manage/members", {
        token: ws.ownerToken,
        body: { email: `m-${Date.now()}@example.test`, name: "M", role: "member" },
      }),
      201,
    );
    const byMember = await call(
      "POST",
      `/v1/manage/workflows/${flow.id}/executions/${executionId}/replay`,
      { token: member.memberToken, body: {} },
    );
    expect(byMember.status).toBe(403);
  });
});

describe("bulk replay of failed executions", () => {
  const failing = {
    nodes: [
      { type: "webhook" },
      { key: "call", type: "http_request", method: "GET", url: "{{webhook_1.body.url}}" },
    ],
    connections: [{ from: "webhook_1", to: "call" }],
  };

  it("replays the failed ones of the window, oldest first, in the background", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, failing);
    const url = flow.webhookUrls.webhook_1 as string;
    const since = new Date().toISOString();
    const ids: string[] = [];
    for (const body of [{ url: "not a url" }, { url: "ftp://x" }, { url: "also bad" }]) {
      ids.push(
        (await expectJson<{ executionId: string }>(await hook(url, { body }), 200)).executionId,
      );
    }
    await vi.waitFor(async () => {
      const all = await listAll(ws, flow.id);
      if (all.some((record) => record.status !== "failed")) throw new Error("not yet failed");
    });
    const until = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    // A failure after `until` is left alone.
    await hook(url, { body: { url: "late" } });
    const queued = await call("POST", `/v1/manage/workflows/${flow.id}/executions/replay`, {
      token: ws.ownerToken,
      body: { status: "failed", since, until },
    });
    expect(await expectJson(queued, 202)).toEqual({ count: 3 });
    const replays = await vi.waitFor(async () => {
      const found = (await listAll(ws, flow.id)).filter((record) => record.replayOf !== null);
      if (found.length < 3) throw new Error("not all replayed yet");
      return found;
    });
    // Newest first in the list: the oldest failure was replayed first.
    expect(replays.map((record) => record.replayOf).reverse()).toEqual(ids);
    const refused = await call("POST", `/v1/manage/workflows/${flow.id}/executions/replay`, {
      token: ws.ownerToken,
      body: { status: "succeeded", since: "yesterday" },
    });
    expect(refused.status).toBe(400);
  });

  it("is taken up by the runner's alarm while replays wait in its queue", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, failing);
    const sent = await hook(flow.webhookUrls.webhook_1 as string, { body: { url: "bad" } });
    const { executionId } = await expectJson<{ executionId: string }>(sent, 200);
    expect((await listAll(ws, flow.id))[0]?.status).toBe("failed");
    const stub = env.WORKFLOW_RUNNER.get(env.WORKFLOW_RUNNER.idFromName(flow.id));
    // Queued behind the running object's back (its start-up drain is long done), with the
    // watch alarm a bulk replay sets: only the alarm can find it.
    await runInDurableObject(stub, async (_instance, state) => {
      state.storage.sql.exec(
        "INSERT INTO replay_queue (workflow_id, execution_id, mode) VALUES (?, ?, 'original')",
        flow.id,
        executionId,
      );
      await state.storage.setAlarm(Date.now() + 60_000);
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const replayed = await vi.waitFor(async () => {
      const found = (await listAll(ws, flow.id)).find((record) => record.replayOf === executionId);
      if (!found) throw new Error("not replayed yet");
      return found;
    });
    expect(replayed.trigger.key).toBe("webhook_1");
  });

  it("goes on after a restart of the runner", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, failing);
    const sent = await hook(flow.webhookUrls.webhook_1 as string, { body: { url: "bad" } });
    const { executionId } = await expectJson<{ executionId: string }>(sent, 200);
    // Listing writes the finished record, which a restart would otherwise lose.
    expect((await listAll(ws, flow.id))[0]?.status).toBe("failed");
    const stub = env.WORKFLOW_RUNNER.get(env.WORKFLOW_RUNNER.idFromName(flow.id));
    // Queued as a bulk replay would, then the object restarts before draining it.
    await runInDurableObject(stub, (_instance, state) => {
      state.storage.sql.exec(
        "INSERT INTO replay_queue (workflow_id, execution_id, mode) VALUES (?, ?, 'original')",
        flow.id,
        executionId,
      );
    });
    await runInDurableObject(stub, (_instance, state) => state.abort("test restart")).catch(
      () => undefined,
    );
    const replayed = await vi.waitFor(async () => {
      const found = (await listAll(ws, flow.id)).find((record) => record.replayOf === executionId);
      if (!found) throw new Error("not replayed yet");
      return found;
    });
    expect(replayed.trigger.key).toBe("webhook_1");
  });
});
