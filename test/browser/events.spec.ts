/**
 * Lifecycle events under `wrangler dev` (docs/events.md), as a customer would run them locally: a
 * receiver on 127.0.0.1 registered as an event endpoint gets signed link.created,
 * conversation.started and conversation.ended (reason `person`) through the local Queue, the
 * first answered with a 500 and retried; the official Standard Webhooks verifier accepts all.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, type DemoWorkspace, seedDemoWorkspace } from "../../scripts/demo-seed.mjs";
import { fetchApi } from "../../scripts/local-server.mjs";
import { startWranglerServer, type WranglerServer } from "./wrangler-server";

type Received = { headers: Record<string, string>; body: string; answered: number };

let server: WranglerServer | undefined;
let receiver: http.Server | undefined;
let api: Api;
let demo: DemoWorkspace;
const received: Received[] = [];

beforeAll(async () => {
  receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const answered = received.length === 0 ? 500 : 204;
      received.push({
        headers: request.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString("utf8"),
        answered,
      });
      response.writeHead(answered).end();
    });
  });
  await new Promise<void>((resolve) => receiver?.listen(0, "127.0.0.1", resolve));
  server = await startWranglerServer({ ALLOW_PRIVATE_OUTBOUND: "true" });
  api = fetchApi(server.base);
  demo = await seedDemoWorkspace(api, server.operatorToken);
});

afterAll(async () => {
  await server?.stop();
  receiver?.close();
});

async function until(check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out; received ${received.length}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("lifecycle events under wrangler dev", () => {
  it("delivers signed events through the local queue, retrying a 500", async () => {
    if (!receiver) throw new Error("the receiver did not start");
    const port = (receiver.address() as AddressInfo).port;
    const endpoint = await api("POST", "/v1/manage/event-endpoints", {
      token: demo.memberToken,
      body: { url: `http://127.0.0.1:${port}/events` },
    });
    expect(endpoint.status, endpoint.text).toBe(201);
    const link = await api("POST", "/v1/widget/launches", {
      token: demo.widgetKey,
      body: {
        flowId: demo.agentId,
        channelId: demo.channelId,
        parameters: { plan: "Pro" },
        participant: { name: "Ada", externalId: "user-42" },
      },
    });
    expect(link.status, link.text).toBe(201);
    const session = await api("POST", "/v1/chat/sessions", { body: { token: link.json.token } });
    expect(session.status, session.text).toBe(200);
    const socket = new WebSocket(session.json.socketUrl);
    await new Promise((resolve, reject) => {
      socket.addEventListener("open", resolve);
      socket.addEventListener("error", reject);
    });
    socket.send(JSON.stringify({ type: "end" }));
    // Three events, the first retried 5 s after its 500.
    await until(() => received.length >= 4, 30_000);
    socket.close();

    const webhook = new Webhook(endpoint.json.secret);
    const events = received.map((request) => webhook.verify(request.body, request.headers)) as {
      id: string;
      type: string;
      data: { reason?: string; link: { id: string } };
    }[];
    const byType = new Map(events.map((event) => [event.type, event]));
    expect([...byType.keys()].sort()).toEqual([
      "conversation.ended",
      "conversation.started",
      "link.created",
    ]);
    expect(byType.get("conversation.ended")?.data.reason).toBe("person");
    expect(events.every((event) => event.data.link.id === link.json.id)).toBe(true);
    const retried = received.filter(
      (r) => r.headers["webhook-id"] === received[0]?.headers["webhook-id"],
    );
    expect(retried.map((r) => r.answered)).toEqual([500, 204]);
  });
});
