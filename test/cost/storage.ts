/**
 * Storage added per call (docs/performance.md#storage-added-per-call), measured as the growth of
 * the database that keeps it over many calls: D1's `meta.size_after`, an object's
 * `ctx.storage.sql.databaseSize`. Both grow by whole pages (4 KiB), so each figure is an average
 * over enough calls that a page more or less moves it little.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { conversation } from "../../src/conversations/conversation/client";
import { workflowRunner } from "../../src/workflows/runner/client";
import { call, createWidgetKey, expectJson, launchBody, seedWorkspace } from "../helpers/api";
import { connect, open } from "../helpers/chat";
import { received, registerReceiver } from "../helpers/events";
import { createWorkflow, hook, putSecret, SPEC_EXAMPLE } from "../helpers/workflows";
import { runtimeStub, settle } from "./meter";

const d1Size = async () => (await env.DB.prepare("SELECT 1").run()).meta.size_after as number;
const objectSize = (stub: object) =>
  runInDurableObject(runtimeStub(stub) as DurableObjectStub, (_o, s) => s.storage.sql.databaseSize);

const body = (ws: Awaited<ReturnType<typeof seedWorkspace>>) =>
  launchBody(ws, {
    participant: { name: "Ada Lovelace", externalId: "cus_123" },
    metadata: { orderId: "1042" },
  });

/** D1 bytes per link, over `count` creates (several keys: 120 calls a minute per key). */
export async function bytesPerLink(count = 400): Promise<number> {
  const ws = await seedWorkspace();
  const keys = [ws.widgetKey];
  while (keys.length * 100 < count) keys.push((await createWidgetKey(ws)).key);
  const before = await d1Size();
  for (let i = 0; i < count; i++) {
    const key = keys[Math.floor(i / 100)];
    await expectJson(
      await call("POST", "/v1/widget/launches", { token: key, body: body(ws) }),
      201,
    );
  }
  await settle();
  return ((await d1Size()) - before) / count;
}

/** D1 bytes per link with one endpoint listening: the link, its event, delivery and attempt. */
export async function bytesPerLinkWithEvent(count = 100): Promise<number> {
  const ws = await seedWorkspace();
  const receiver = await registerReceiver(ws, { events: ["link.created"] });
  const before = await d1Size();
  for (let i = 0; i < count; i++) {
    await expectJson(
      await call("POST", "/v1/widget/launches", { token: ws.widgetKey, body: body(ws) }),
      201,
    );
  }
  while ((await received(receiver)).length < count) await new Promise((r) => setTimeout(r, 100));
  await settle(500);
  return ((await d1Size()) - before) / count;
}

/** The runner's bytes per webhook execution (lastNode), over `count` calls. */
export async function bytesPerExecution(count = 60): Promise<number> {
  const ws = await seedWorkspace();
  await putSecret(ws, "WEBHOOK_SECRET", "s3cr3t");
  const flow = await createWorkflow(ws, SPEC_EXAMPLE);
  const url = flow.webhookUrls.webhook_1 as string;
  const call = () =>
    hook(url, { headers: { "x-webhook-secret": "s3cr3t" }, body: { orderId: 1042 } });
  await (await call()).text();
  await settle();
  const runner = workflowRunner(env, flow.id);
  const before = await objectSize(runner);
  for (let i = 0; i < count; i++) await (await call()).text();
  await settle();
  return ((await objectSize(runner)) - before) / count;
}

/**
 * The conversation's bytes per exchange (a message and its reply): `conversations` talking at
 * once, 19 exchanges each (a person may send 20 messages a minute), their growth added up, so the
 * page each one's growth is rounded to weighs less.
 */
export async function bytesPerExchange(conversations = 6, exchanges = 19): Promise<number> {
  const ws = await seedWorkspace();
  const talk = async () => {
    const link = await expectJson<{ token: string }>(
      await call("POST", "/v1/widget/launches", { token: ws.widgetKey, body: body(ws) }),
      201,
    );
    const session = await open(link.token);
    const client = await connect(session.socketUrl as string);
    const stub = conversation(env, session.sessionId);
    const before = await objectSize(stub);
    for (let i = 0; i < exchanges; i++) {
      client.send({ type: "message", text: `Where is my order ${1000 + i}? It has not arrived.` });
      await client.next("message");
      await client.next("message");
    }
    const grown = (await objectSize(stub)) - before;
    client.socket.close();
    return grown;
  };
  const grown = await Promise.all(Array.from({ length: conversations }, talk));
  return grown.reduce((sum, bytes) => sum + bytes, 0) / (conversations * exchanges);
}
