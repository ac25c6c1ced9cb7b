/**
 * The operations docs/performance.md prices, each set up as a customer would and measured with the
 * meter: cold (a first call, docs/performance.md#first-calls) and steady (later calls, caches
 * warm), each steady call measured twice so a test can hold them equal.
 */
import { evictDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { linkLedger } from "../../src/launch/ledger/client";
import {
  call,
  createWidgetKey,
  expectJson,
  launchBody,
  seedWorkspace,
  type Workspace,
} from "../helpers/api";
import { connect, open } from "../helpers/chat";
import { received, registerReceiver } from "../helpers/events";
import {
  createWorkflow,
  githubSignature,
  hook,
  putSecret,
  SPEC_EXAMPLE,
} from "../helpers/workflows";
import { measure, measureOne, runtimeStub, type Tally } from "./meter";

/** A measured operation: its first call, and two later ones. */
export type Measured = { cold?: Tally; steady: [Tally, Tally] };

const PERSON = { name: "Ada Lovelace", externalId: "cus_123" };

async function create(ws: Workspace): Promise<string> {
  const body = launchBody(ws, { participant: PERSON, metadata: { orderId: "1042" } });
  return (
    await expectJson<{ id: string }>(
      await call("POST", "/v1/widget/launches", { token: ws.widgetKey, body }),
      201,
    )
  ).id;
}

async function expectStatus(response: Promise<Response>, status: number): Promise<void> {
  const answer = await response;
  if (answer.status !== status)
    throw new Error(`expected ${status}, got ${answer.status}: ${await answer.text()}`);
}

/**
 * Create, look up and revoke in a fresh workspace. Cold: the first call of a new key, to a
 * ledger that has just started (a fresh workspace's, or one restarted by eviction).
 */
export async function launchOperations() {
  const ws = await seedWorkspace();
  const ids: string[] = [];
  const creates = [];
  for (let i = 0; i < 3; i++)
    creates.push(await measureOne(async () => ids.push(await create(ws))));
  const lookUp = (id: string, key = ws.widgetKey) =>
    measureOne(() => expectStatus(call("GET", `/v1/widget/launches/${id}`, { token: key }), 200));
  const revoke = (id: string, key = ws.widgetKey) =>
    measureOne(() =>
      expectStatus(call("DELETE", `/v1/widget/launches/${id}`, { token: key }), 204),
    );
  const [first, second, third] = ids as [string, string, string];
  const lookUps: Measured = { steady: [await lookUp(first), await lookUp(first)] };
  const revokes: Measured = { steady: [await revoke(first), await revoke(second)] };
  const restarted = async () => {
    const { key } = await createWidgetKey(ws);
    await evictDurableObject(runtimeStub(linkLedger(env, ws.workspaceId)) as DurableObjectStub);
    return key;
  };
  lookUps.cold = await lookUp(third, await restarted());
  revokes.cold = await revoke(third, await restarted());
  const [cold, ...steady] = creates as [Tally, Tally, Tally];
  return { create: { cold, steady } as Measured, lookUp: lookUps, revoke: revokes };
}

/**
 * Writes `count` ended links straight into D1 as if made over the past weeks, `perPerson` for
 * each externalId `cus_<n>`: a workspace's history, which a search must not read through.
 */
export async function seedHistory(ws: Workspace, count: number, perPerson: number): Promise<void> {
  const now = Date.now();
  await env.DB.prepare(
    `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?1)
     INSERT INTO links (id, workspace_id, flow_id, channel_id, token_hash, status, parameters,
       participant_name, participant_external_id, metadata, expires_at, created_at, created_by_key,
       session_id, started_at, ended_at)
     SELECT 'lnk_hist_' || ?2 || '_' || n, ?2, ?3, ?4, 'hist_' || ?2 || '_' || n, 'ended',
       '{"plan":"basic"}', 'Person ' || CAST(n / ?5 AS INTEGER), 'cus_' || CAST(n / ?5 AS INTEGER), '{}', ?6 + 86400000,
       ?6 - n * 60000, 'wk_seed', 'ses_hist_' || n, ?6 - n * 60000, ?6 - n * 60000 + 600000
     FROM seq`,
  )
    // Integers: a JavaScript number is bound as a real, and n / 10.0 would not name a person.
    .bind(count, ws.workspaceId, ws.agentId, ws.channelId, perPerson, now)
    .run();
}

/** A search by externalId: the page the person's links fill, whatever the workspace holds. */
export async function listByExternalId(
  ws: Workspace,
  externalId: string,
  limit = 20,
): Promise<Measured> {
  const list = () =>
    measureOne(() =>
      expectStatus(
        call("GET", `/v1/widget/launches?externalId=${externalId}&limit=${limit}`, {
          token: ws.widgetKey,
        }),
        200,
      ),
    );
  return { cold: await list(), steady: [await list(), await list()] };
}

const IMMEDIATE = {
  ...SPEC_EXAMPLE,
  nodes: [{ type: "webhook", responseMode: "immediate" }, ...SPEC_EXAMPLE.nodes.slice(1)],
};

/** Webhook → condition on the shared secret → set, answered at once and with the last node. */
export async function webhookOperations() {
  const ws = await seedWorkspace();
  await putSecret(ws, "WEBHOOK_SECRET", "s3cr3t");
  const run = async (definition: typeof SPEC_EXAMPLE): Promise<Measured> => {
    const flow = await createWorkflow(ws, definition);
    const url = flow.webhookUrls.webhook_1 as string;
    const send = () =>
      measureOne(() =>
        expectStatus(
          hook(url, { headers: { "x-webhook-secret": "s3cr3t" }, body: { orderId: 1042 } }),
          200,
        ),
      );
    return { cold: await send(), steady: [await send(), await send()] };
  };
  const immediate = await run(IMMEDIATE);
  const lastNode = await run(SPEC_EXAMPLE);
  return { immediate, lastNode, verified: await verified(ws), burst: await burst(ws) };
}

/**
 * The immediate webhook with GitHub's `verify` and no `dedupe`: each call a new delivery (its own
 * body, signature and `x-github-delivery`), claimed by the default deduplication on both.
 */
async function verified(ws: Workspace): Promise<Measured> {
  await putSecret(ws, "GH", "gh-secret");
  const [webhook, ...rest] = IMMEDIATE.nodes;
  const verify = { preset: "github", secret: "{{secrets.GH}}" };
  const flow = await createWorkflow(ws, { ...IMMEDIATE, nodes: [{ ...webhook, verify }, ...rest] });
  const url = flow.webhookUrls.webhook_1 as string;
  let delivery = 0;
  const send = async () => {
    delivery += 1;
    const body = JSON.stringify({ orderId: 1042, delivery });
    const headers = {
      "content-type": "application/json",
      "x-webhook-secret": "s3cr3t",
      "x-github-delivery": `d-${delivery}`,
      "x-hub-signature-256": await githubSignature("gh-secret", body),
    };
    return measureOne(() => expectStatus(hook(url, { headers, body }), 200));
  };
  return { cold: await send(), steady: [await send(), await send()] };
}

/** Calls of the immediate webhook sent at once by `webhookOperations`' burst. */
export const BURST_CALLS = 20;

/** BURST_CALLS immediate webhook calls sent at once, after one call warmed the runner. */
async function burst(ws: Workspace): Promise<Tally> {
  const flow = await createWorkflow(ws, IMMEDIATE);
  const url = flow.webhookUrls.webhook_1 as string;
  const send = () =>
    expectStatus(
      hook(url, { headers: { "x-webhook-secret": "s3cr3t" }, body: { orderId: 1042 } }),
      200,
    );
  await send();
  return measureOne(() => Promise.all(Array.from({ length: BURST_CALLS }, send)));
}

/**
 * A person's message over the conversation socket and the agent's reply (the scripted brain),
 * as exchanges 1 to 4 of a conversation that opened with the agent's greeting.
 */
export async function chatExchanges(): Promise<Tally[]> {
  const ws = await seedWorkspace();
  const link = await expectJson<{ token: string }>(
    await call("POST", "/v1/widget/launches", {
      token: ws.widgetKey,
      body: launchBody(ws, { participant: PERSON }),
    }),
    201,
  );
  const session = await open(link.token);
  const client = await connect(session.socketUrl as string);
  const exchanges: Tally[] = [];
  for (let i = 1; i <= 4; i++) {
    exchanges.push(
      await measureOne(async () => {
        client.send({ type: "message", text: `Where is my order ${i}?` });
        await client.next("message");
        const reply = await client.next("message");
        if (reply.message?.role !== "agent") throw new Error("no reply from the agent");
      }),
    );
  }
  client.socket.close();
  return exchanges;
}

/**
 * A create with one endpoint listening to `link.created`, then the event's delivery by the queue
 * consumer (through the real queue), measured apart at the consumer's invocation.
 */
export async function eventOperations() {
  const ws = await seedWorkspace();
  const receiver = await registerReceiver(ws, { events: ["link.created"] });
  const pairs: [Tally, Tally][] = [];
  for (let i = 0; i < 3; i++) {
    const before = (await received(receiver)).length;
    const tallies = await measure(() => create(ws), {
      untilQueue: async () => {
        while ((await received(receiver)).length === before)
          await new Promise((r) => setTimeout(r, 50));
      },
    });
    if (tallies.length !== 2)
      throw new Error(`expected one consumer invocation, got ${tallies.length - 1}`);
    pairs.push(tallies as [Tally, Tally]);
  }
  const [[coldCreate, coldDelivery], [create2, delivery2], [create3, delivery3]] = pairs as [
    [Tally, Tally],
    [Tally, Tally],
    [Tally, Tally],
  ];
  return {
    create: { cold: coldCreate, steady: [create2, create3] } as Measured,
    delivery: { cold: coldDelivery, steady: [delivery2, delivery3] } as Measured,
  };
}
