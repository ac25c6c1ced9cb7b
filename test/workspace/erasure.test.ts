/**
 * Erasing a person (docs/security.md#erasure): `POST /v1/widget/erasures` (the customer's backend)
 * or `POST /v1/manage/erasures` (Owners and Admins) with `{externalId}` erases, in the background,
 * the person's links (their conversations, messages, events and deliveries) and what executions,
 * the request log and captured samples kept of them; another person's data stays. A scan of D1
 * and of every object involved finds nothing of the person afterwards, and a repeat erases nothing.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { linkLedger } from "../../src/launch/ledger/client";
import { maintenanceJob } from "../../src/workspace/jobs/client";
import { call, eventually, expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import { connect, createLaunch, open } from "../helpers/chat";
import { expectError } from "../helpers/errors";
import { registerReceiver } from "../helpers/events";
import { d1Tables, storedState } from "../helpers/storage-scan";
import { createWorkflow, type ExecutionView, execution, hook } from "../helpers/workflows";

type Erasure = {
  id: string;
  status: string;
  externalId?: string;
  counts: Record<string, number>;
};

const PERSON = `cus_erase_${crypto.randomUUID().slice(0, 8)}`;
const OTHER = `${PERSON}_other`;
const SAID = `my card is ${crypto.randomUUID()}`;
let ws: Workspace;
let personLinks: string[];
let otherLink: string;
let sessionId: string;
let webhookFlow: string;
let eventFlow: string;
let calls: { person: string; other: string };

const executionsOf = async (workflowId: string) =>
  (
    await expectJson<{ data: ExecutionView[] }>(
      await call("GET", `/v1/manage/workflows/${workflowId}/executions?limit=100`, {
        token: ws.ownerToken,
      }),
      200,
    )
  ).data;

async function completed(path: string, token: string): Promise<Erasure> {
  return eventually(async () => {
    const erasure = await expectJson<Erasure>(await call("GET", path, { token }), 200);
    return erasure.status === "running" ? undefined : erasure;
  });
}

beforeAll(async () => {
  ws = await seedWorkspace();
  await registerReceiver(ws);
  const events = await createWorkflow(ws, {
    nodes: [
      { type: "conversation_event", agentId: ws.agentId },
      {
        key: "note",
        type: "set",
        fields: { who: "{{conversation_event_1.participant.externalId}}" },
      },
    ],
    connections: [{ from: "conversation_event_1", to: "note" }],
  });
  eventFlow = events.id;
  const hooks = await createWorkflow(ws, {
    nodes: [
      { type: "webhook", responseMode: "lastNode" },
      { key: "echo", type: "set", fields: { customer: "{{webhook_1.body.customer}}" } },
    ],
    connections: [{ from: "webhook_1", to: "echo" }],
  });
  webhookFlow = hooks.id;
  const opened = await createLaunch(ws, { participant: { name: "Ada", externalId: PERSON } });
  const pending = await createLaunch(ws, {
    participant: { name: "Ada", externalId: PERSON },
    globalTask: "Talk about the refund",
  });
  const other = await createLaunch(ws, { participant: { name: "Bo", externalId: OTHER } });
  personLinks = [opened.id, pending.id];
  otherLink = other.id;
  const session = await open(opened.token);
  sessionId = session.sessionId;
  const client = await connect(session.socketUrl as string);
  client.send({ type: "message", text: SAID });
  await client.next("message");
  const url = hooks.webhookUrls.webhook_1 as string;
  const byPerson = await hook(url, { body: { customer: PERSON } });
  const byOther = await hook(url, { body: { customer: OTHER } });
  calls = {
    person: byPerson.headers.get("x-execution-id") as string,
    other: byOther.headers.get("x-execution-id") as string,
  };
  await eventually(async () => ((await executionsOf(eventFlow)).length >= 1 ? true : undefined));
});

describe("erasing a person", () => {
  it("erases everything of the person, and nothing of anyone else", async () => {
    const requested = await expectJson<Erasure>(
      await call("POST", "/v1/widget/erasures", {
        token: ws.widgetKey,
        body: { externalId: PERSON },
      }),
      202,
    );
    expect(requested).toMatchObject({ status: "running", externalId: PERSON });
    expect(requested.id).toMatch(/^era_[0-9A-Za-z]{22}$/);
    const done = await completed(`/v1/widget/erasures/${requested.id}`, ws.widgetKey);
    expect(done).toMatchObject({ status: "succeeded" });
    expect(done).not.toHaveProperty("externalId");
    expect(done.counts).toMatchObject({ links: 2, conversations: 1 });
    expect(done.counts.messages).toBeGreaterThanOrEqual(2);
    expect(done.counts.executions).toBeGreaterThanOrEqual(2);
    expect(done.counts.events).toBeGreaterThanOrEqual(2);
    expect(done.counts.deliveries).toBeGreaterThanOrEqual(2);

    for (const id of personLinks) {
      await expectError(
        await call("GET", `/v1/widget/launches/${id}`, { token: ws.widgetKey }),
        404,
        "not_found",
      );
    }
    const listed = await expectJson<{ data: unknown[] }>(
      await call("GET", `/v1/widget/launches?externalId=${PERSON}`, { token: ws.widgetKey }),
      200,
    );
    expect(listed.data).toEqual([]);
    expect(
      (await call("GET", `/v1/widget/launches/${otherLink}`, { token: ws.widgetKey })).status,
    ).toBe(200);
    const erased = await execution(ws, webhookFlow, calls.person);
    expect(erased.nodes.map((run) => run.output)).toEqual(["[erased]", "[erased]"]);
    const kept = await execution(ws, webhookFlow, calls.other);
    expect(kept.nodes[1]?.output).toEqual({ customer: OTHER });

    // Nothing of the person anywhere: D1, the ledger, the runners, the conversation, the job.
    const stored = [
      [...(await d1Tables()).values()].join("\n"),
      (await storedState(linkLedger(env, ws.workspaceId))).text,
      (await storedState(env.WORKFLOW_RUNNER.get(env.WORKFLOW_RUNNER.idFromName(webhookFlow))))
        .text,
      (await storedState(env.WORKFLOW_RUNNER.get(env.WORKFLOW_RUNNER.idFromName(eventFlow)))).text,
      (await storedState(env.CONVERSATION.get(env.CONVERSATION.idFromName(sessionId)))).text,
      (await storedState(maintenanceJob(env, requested.id))).text,
    ];
    const person = new RegExp(`${PERSON}(?!_other)`);
    for (const [index, text] of stored.entries()) {
      expect(person.test(text), `store ${index}`).toBe(false);
      expect(text.includes(SAID), `store ${index}`).toBe(false);
    }
    expect(stored[0]).toContain(OTHER);

    // Again: nothing left to erase.
    const again = await expectJson<Erasure>(
      await call("POST", "/v1/manage/erasures", {
        token: ws.ownerToken,
        body: { externalId: PERSON },
      }),
      202,
    );
    const second = await completed(`/v1/manage/erasures/${again.id}`, ws.ownerToken);
    expect(second.counts).toEqual({
      links: 0,
      conversations: 0,
      messages: 0,
      executions: 0,
      events: 0,
      deliveries: 0,
    });
  });

  it("is refused to members who cannot write, other workspaces, and bad bodies", async () => {
    const other = await seedWorkspace();
    const mine = await expectJson<Erasure>(
      await call("POST", "/v1/widget/erasures", {
        token: ws.widgetKey,
        body: { externalId: "someone" },
      }),
      202,
    );
    await expectError(
      await call("GET", `/v1/widget/erasures/${mine.id}`, { token: other.widgetKey }),
      404,
      "not_found",
    );
    await expectError(
      await call("GET", `/v1/manage/erasures/${mine.id}`, { token: other.ownerToken }),
      404,
      "not_found",
    );
    const { memberToken } = await expectJson<{ memberToken: string }>(
      await call("POST", "/v1/manage/members", {
        token: ws.ownerToken,
        body: { email: "reader@example.com", name: "Reader", role: "member" },
      }),
      201,
    );
    await expectError(
      await call("POST", "/v1/manage/erasures", {
        token: memberToken,
        body: { externalId: "someone" },
      }),
      403,
      "insufficient_scope",
    );
    for (const body of [{}, { externalId: "" }, { externalId: "x", extra: 1 }]) {
      await expectError(
        await call("POST", "/v1/widget/erasures", { token: ws.widgetKey, body }),
        400,
        "invalid_request",
      );
    }
    await expectError(
      await call("POST", "/v1/manage/erasures", {
        token: ws.widgetKey,
        body: { externalId: "someone" },
      }),
      403,
      "insufficient_scope",
    );
  });
});
