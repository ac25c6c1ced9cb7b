/**
 * ask_person run by the runner (docs/workflows.md#ask-person): the question posted into the link's
 * conversation with its asker, then a durable wait that ends by `answered` (answerQuestion, once),
 * or by `timeout` at its time or when the link ends (closeQuestion); through a restart and an
 * eviction. The Conversation's side is a test double (test/helpers/conversation-double.ts); the
 * runner's RPC is called as the Conversation's outbox calls it.
 */
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Secrets } from "../../src/workflows/runner/workflow-source";
import { seedWorkspace, type Workspace } from "../helpers/api";
import {
  holdNextPost,
  installConversationDouble,
  posts,
  removeConversationDouble,
} from "../helpers/conversation-double";
import { alarmAt, at, restart, runner } from "../helpers/flow-gather";
import { createWorkflow, type ExecutionView, execution, hook } from "../helpers/workflows";

let ws: Workspace;
beforeAll(async () => {
  ws = await seedWorkspace();
  installConversationDouble();
});
afterAll(removeConversationDouble);

const TIMEOUT_S = 600;

/** webhook → create_link → ask_person → answered: set / timeout: set; started, waiting. */
async function asking() {
  const { flow, executionId, post } = await askingStarted();
  const waiting = await settled(flow.id, executionId, "waiting");
  if (!post.message.question) throw new Error("no question was posted");
  const { question } = post.message;
  const asked = { executionId, nodeKey: "ask", questionId: question.id };
  return { flow, executionId, waiting, post, question, asked, startedAt: Date.now() };
}

/** The workflow of `asking`, called; once its question is posted (maybe not saved waiting yet). */
async function askingStarted() {
  const flow = await createWorkflow(ws, {
    nodes: [
      { type: "webhook" },
      {
        key: "link",
        type: "create_link",
        flowId: ws.agentId,
        channelId: ws.channelId,
        parameters: { plan: "basic" },
      },
      {
        key: "ask",
        type: "ask_person",
        linkId: "{{link.id}}",
        question: "Update your card now?",
        options: [
          { label: "Yes, now", value: "yes" },
          { label: "Later", value: "later" },
        ],
        timeoutSeconds: TIMEOUT_S,
      },
      { key: "yes", type: "set", fields: { said: "{{ask.answer}}" } },
      { key: "late", type: "set", fields: { timedOut: "{{ask.timedOut}}" } },
    ],
    connections: [
      { from: "webhook_1", to: "link" },
      { from: "link", to: "ask" },
      { from: "ask", to: "yes", branch: "answered" },
      { from: "ask", to: "late", branch: "timeout" },
    ],
  });
  const answer = await hook(flow.webhookUrls.webhook_1 as string, { body: {} });
  const executionId = answer.headers.get("x-execution-id") ?? "";
  const post = await vi.waitFor(() => {
    const found = posts.find((each) => each.message.question?.asker.executionId === executionId);
    if (!found?.message.question) throw new Error("no question was posted");
    return found;
  });
  return { flow, executionId, post };
}

/** The record once its last node is `status` (waiting) or the execution ended (`ended`). */
function settled(workflowId: string, executionId: string, status: "waiting" | "ended") {
  return vi.waitFor(
    async () => {
      const record = await execution(ws, workflowId, executionId);
      const done =
        status === "ended"
          ? record.status !== "running"
          : record.nodes.at(-1)?.status === "waiting";
      if (!done) throw new Error(`not ${status} yet`);
      return record;
    },
    { timeout: 10_000, interval: 20 },
  );
}

const keys = (record: ExecutionView) => record.nodes.map((node) => `${node.key} ${node.status}`);

describe("ask_person", () => {
  it("posts the question with its asker, then goes on by answered, once", async () => {
    const { flow, executionId, waiting, post, question, asked } = await asking();
    expect(keys(waiting)).toEqual(["webhook_1 succeeded", "link succeeded", "ask waiting"]);
    expect(post.message).toEqual({
      id: expect.stringMatching(/^msg_[0-9a-f]{24}$/),
      text: "Update your card now?",
      question: {
        id: expect.stringMatching(/^qst_[0-9a-f]{24}$/),
        options: [
          { label: "Yes, now", value: "yes" },
          { label: "Later", value: "later" },
        ],
        allowText: false,
        asker: { workflowId: flow.id, shard: 0, executionId, nodeKey: "ask" },
      },
    });
    // Not this question (another id): ignored.
    await runner(flow.id).answerQuestion({
      ...asked,
      questionId: "qst_other",
      answer: "x",
      answeredAt: 1,
    });
    const answeredAt = Date.now();
    await runner(flow.id).answerQuestion({ ...asked, answer: "yes", answeredAt });
    const ended = await settled(flow.id, executionId, "ended");
    expect(keys(ended)).toEqual([
      "webhook_1 succeeded",
      "link succeeded",
      "ask succeeded",
      "yes succeeded",
    ]);
    expect(ended.nodes[2]?.output).toEqual({
      answer: "yes",
      answeredAt: new Date(answeredAt).toISOString(),
    });
    expect(ended.nodes[3]?.output).toEqual({ said: "yes" });
    // A second answer (the outbox repeating, or the person again) changes nothing.
    await runner(flow.id).answerQuestion({ ...asked, answer: "later", answeredAt: answeredAt + 1 });
    await runner(flow.id).closeQuestion({ ...asked, closedAt: answeredAt + 2 });
    expect(await execution(ws, flow.id, executionId)).toEqual(ended);
    expect(question.id).toBe(asked.questionId);
  });

  it("goes on by timeout when its time comes, and not before", async () => {
    const { flow, executionId, startedAt } = await asking();
    await alarmAt(flow.id, startedAt + (TIMEOUT_S - 60) * 1000);
    expect((await execution(ws, flow.id, executionId)).status).toBe("running");
    await alarmAt(flow.id, startedAt + (TIMEOUT_S + 5) * 1000);
    const ended = await settled(flow.id, executionId, "ended");
    expect(keys(ended).slice(2)).toEqual(["ask succeeded", "late succeeded"]);
    expect(ended.nodes[2]?.output).toEqual({ timedOut: true });
  });

  it("goes on by timeout when the link's conversation ends (closeQuestion)", async () => {
    const { flow, executionId, asked } = await asking();
    await runner(flow.id).closeQuestion({ ...asked, closedAt: Date.now() });
    const ended = await settled(flow.id, executionId, "ended");
    expect(keys(ended).slice(2)).toEqual(["ask succeeded", "late succeeded"]);
    // An answer after the close is ignored.
    await runner(flow.id).answerQuestion({ ...asked, answer: "yes", answeredAt: Date.now() });
    expect(keys(await execution(ws, flow.id, executionId)).slice(2)).toEqual([
      "ask succeeded",
      "late succeeded",
    ]);
  });

  it("keeps waiting through a restart and an eviction, and takes the answer after them", async () => {
    const { flow, executionId, asked } = await asking();
    await restart(flow.id);
    // Looking wakes the restarted runner; then it is evicted, and a new instance takes the answer.
    expect(keys(await execution(ws, flow.id, executionId)).at(-1)).toBe("ask waiting");
    await evictDurableObject(runner(flow.id));
    await runner(flow.id).answerQuestion({ ...asked, answer: "later", answeredAt: Date.now() });
    const ended = await settled(flow.id, executionId, "ended");
    expect(ended.status).toBe("succeeded");
    expect(ended.nodes.at(-1)).toMatchObject({ key: "yes", output: { said: "later" } });
    // The question was asked once: the restart posted nothing again.
    expect(
      posts.filter((post) => post.message.question?.asker.executionId === executionId),
    ).toHaveLength(1);
  });

  it("keeps an answer that comes while the question is still being asked (a restart between)", async () => {
    const posted = Promise.withResolvers<void>();
    holdNextPost.until = posted.promise;
    try {
      const { flow, executionId, post } = await askingStarted();
      // Posted, not saved waiting: the runner restarts (a deploy) before the post answers.
      await restart(flow.id);
      const asked = { executionId, nodeKey: "ask", questionId: post.message.question?.id ?? "" };
      const stub = runner(flow.id);
      // The clock ahead of the alarm the restart sets, so that only the test fires it.
      const later = Date.now() + 3_600_000;
      const refusal = (error: Error) => error.message;
      await at(later, async () => {
        const answer = { ...asked, answer: "yes", answeredAt: later };
        expect(await stub.answerQuestion(answer).then(() => "applied", refusal)).toMatch(
          /still being asked/,
        );
        const closing = { ...asked, closedAt: later };
        expect(await stub.closeQuestion(closing).then(() => "applied", refusal)).toMatch(
          /still being asked/,
        );
      });
      // The alarm asks again (already posted); the outbox's next try applies the answer.
      await alarmAt(flow.id, later + 1_000);
      await settled(flow.id, executionId, "waiting");
      await stub.answerQuestion({ ...asked, answer: "yes", answeredAt: Date.now() });
      const ended = await settled(flow.id, executionId, "ended");
      expect(keys(ended).slice(2)).toEqual(["ask succeeded", "yes succeeded"]);
      expect(posts.filter((each) => each.message.id === post.message.id)).toHaveLength(1);
    } finally {
      posted.resolve();
      holdNextPost.until = null;
    }
  });

  it("goes on once when the answer comes while the timeout's alarm reads the secrets", async () => {
    const { flow, executionId, asked, startedAt } = await asking();
    const reading = Promise.withResolvers<void>();
    const read = Promise.withResolvers<void>();
    // The alarm's read of the secrets is held (as D1 may hold it), letting the answer in.
    await runInDurableObject(runner(flow.id), (instance) => {
      type Read = (workflowId: string) => Promise<Secrets>;
      const executor = (instance as unknown as { executor: { secretsFor: Read } }).executor;
      const original = executor.secretsFor;
      executor.secretsFor = async (workflowId) => {
        executor.secretsFor = original;
        reading.resolve();
        await read.promise;
        return original(workflowId);
      };
    });
    const alarm = alarmAt(flow.id, startedAt + (TIMEOUT_S + 5) * 1000);
    await reading.promise;
    await runner(flow.id).answerQuestion({ ...asked, answer: "yes", answeredAt: Date.now() });
    const ended = await settled(flow.id, executionId, "ended");
    expect(keys(ended).slice(2)).toEqual(["ask succeeded", "yes succeeded"]);
    read.resolve();
    await alarm;
    // The alarm's copy is stale: not timed out and driven a second time.
    expect(await execution(ws, flow.id, executionId)).toEqual(ended);
  });
});
