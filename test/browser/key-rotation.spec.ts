/**
 * The key-rotation runbook (docs/security.md#rotating-keys), run on a real server across restarts
 * (`wrangler dev` stopped and started on the same state, as a deploy would): values sealed under
 * key A (a workspace secret, an event endpoint's secret, an idempotent create's answer, a running
 * execution's state, an execution's kept input) keep working when B seals and A is only
 * previous, `POST /v1/operator/reseal` seals them all again under B, and they still work once A is
 * removed. No browser: a Node client against the server, as the runbook's operator would be.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  type Api,
  type DemoWorkflow,
  type DemoWorkspace,
  seedDemoWorkflow,
  seedDemoWorkspace,
} from "../../scripts/demo-seed.mjs";
import { fetchApi, type LocalServer, startLocalServer } from "../../scripts/local-server.mjs";

const KEY_A = randomBytes(32).toString("base64");
const KEY_B = randomBytes(32).toString("base64");
const OPERATOR_TOKEN = randomBytes(24).toString("hex");
const state = fs.mkdtempSync(path.join(os.tmpdir(), "agent-edge-rotation-"));

let server: LocalServer | undefined;
let api: Api;
let demo: DemoWorkspace;
let workflow: DemoWorkflow;
/** A receiver of event deliveries and an answer the held workflow waits on, on 127.0.0.1. */
let local: http.Server;
let released = false;
const delivered: { headers: Record<string, string>; body: string }[] = [];
const seed: Record<string, string> = {};

async function restart(vars: Record<string, string>): Promise<void> {
  await server?.stop();
  server = await startLocalServer({
    state: "temporary",
    persistDir: state,
    migratedState: inject("migratedState"),
    prebuilt: true,
    logLevel: "warn",
    vars: { OPERATOR_TOKEN, ALLOW_PRIVATE_OUTBOUND: "true", ...vars },
  });
  api = fetchApi(server.base);
}

/** The demo workflow's webhook on the server now running (a restart takes another port). */
const webhookUrl = () => `${server?.base}${new URL(workflow.webhookUrl).pathname}`;

async function until<T>(check: () => Promise<T | undefined>, what: string, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const launchBody = () => ({
  flowId: demo.agentId,
  channelId: demo.channelId,
  parameters: { plan: "pro" },
  participant: { name: "Ada", externalId: "cus_rotation" },
});

/** Everything sealed under A still works: the secret, the endpoint, the stored answer, a replay. */
async function everythingWorks(phase: string): Promise<void> {
  const call = await fetch(webhookUrl(), {
    method: "POST",
    headers: { "content-type": "application/json", "x-webhook-secret": workflow.webhookSecret },
    body: JSON.stringify({ orderId: phase }),
  });
  expect(await call.json(), `${phase}: the workspace secret`).toMatchObject({ ok: true });
  const replayed = await api("POST", "/v1/widget/launches", {
    token: demo.widgetKey,
    body: launchBody(),
    headers: { "idempotency-key": "rotation-1" },
  });
  expect(replayed.status, `${phase}: the idempotent answer ${replayed.text}`).toBe(201);
  expect(replayed.json.token, `${phase}: the same answer`).toBe(seed.token);
  const before = delivered.length;
  const test = await api("POST", `/v1/manage/event-endpoints/${seed.endpointId}/test`, {
    token: demo.memberToken,
  });
  expect(test.json?.status, `${phase}: the endpoint's test event ${test.text}`).toBe("succeeded");
  const event = delivered[before];
  expect(
    new Webhook(seed.endpointSecret as string).verify(event?.body ?? "", event?.headers ?? {}),
  ).toMatchObject({ type: "event.test" });
  const replay = await api(
    "POST",
    `/v1/manage/workflows/${workflow.workflowId}/executions/${seed.keptExecution}/replay`,
    { token: demo.memberToken, body: {} },
  );
  expect(replay.status, `${phase}: a replay of a kept input ${replay.text}`).toBe(201);
  const replayedRun = await until(async () => {
    const record = await api(
      "GET",
      `/v1/manage/workflows/${workflow.workflowId}/executions/${replay.json.id}`,
      { token: demo.memberToken },
    );
    return record.json?.status === "running" ? undefined : record.json;
  }, `${phase}: the replay`);
  // The condition saw the secret header as it was sent: the call was kept sealed and opened.
  expect(replayedRun.nodes.at(-1), `${phase}: the replay's last node`).toMatchObject({
    key: "accepted",
  });
}

beforeAll(async () => {
  local = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.url?.startsWith("/hold")) {
        const answer = () => response.writeHead(200).end('{"held":false}');
        if (released) return answer();
        const timer = setInterval(() => {
          if (released) {
            clearInterval(timer);
            answer();
          }
        }, 100);
        request.on("close", () => clearInterval(timer));
        return;
      }
      delivered.push({
        headers: request.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => local.listen(0, "127.0.0.1", resolve));
  const port = (local.address() as AddressInfo).port;

  // Key A seals everything.
  await restart({ SECRETS_KEY: KEY_A });
  demo = await seedDemoWorkspace(api, OPERATOR_TOKEN);
  workflow = await seedDemoWorkflow(api, demo.memberToken, "rotation-secret-0123456789");
  const endpoint = await api("POST", "/v1/manage/event-endpoints", {
    token: demo.memberToken,
    body: { url: `http://127.0.0.1:${port}/events`, events: ["link.revoked"] },
  });
  seed.endpointId = endpoint.json.id;
  seed.endpointSecret = endpoint.json.secret;
  const created = await api("POST", "/v1/widget/launches", {
    token: demo.widgetKey,
    body: launchBody(),
    headers: { "idempotency-key": "rotation-1" },
  });
  expect(created.status, created.text).toBe(201);
  seed.token = created.json.token;
  const kept = await fetch(webhookUrl(), {
    method: "POST",
    headers: { "content-type": "application/json", "x-webhook-secret": workflow.webhookSecret },
    body: JSON.stringify({ orderId: "kept" }),
  });
  seed.keptExecution = kept.headers.get("x-execution-id") as string;
  // A workflow whose run waits on a request held open: its state stays sealed under A.
  const held = await api("POST", "/v1/manage/workflows", {
    token: demo.memberToken,
    body: {
      name: "Held",
      slug: "held",
      nodes: [
        { type: "webhook" },
        { key: "wait", type: "http_request", url: `http://127.0.0.1:${port}/hold` },
        { key: "done", type: "set", fields: { secret: "{{secrets.WEBHOOK_SECRET}}" } },
      ],
      connections: [
        { from: "webhook_1", to: "wait" },
        { from: "wait", to: "done" },
      ],
    },
  });
  expect(held.status, held.text).toBe(201);
  seed.heldWorkflow = held.json.id;
  await api("POST", `/v1/manage/workflows/${held.json.id}/start`, { token: demo.memberToken });
  const started = await fetch(held.json.webhookUrls.webhook_1, { method: "POST", body: "{}" });
  seed.heldExecution = ((await started.json()) as { executionId: string }).executionId;
}, 240_000);

afterAll(async () => {
  await server?.stop();
  local?.close();
  fs.rmSync(state, { recursive: true, force: true });
});

describe("rotating SECRETS_KEY and OPERATOR_TOKEN by the runbook", () => {
  it("keeps everything working before, during and after a reseal", async () => {
    // Step 1: B seals, A only opens; a new operator token, the old one still accepted.
    const NEW_OPERATOR = randomBytes(24).toString("hex");
    await restart({
      SECRETS_KEY: KEY_B,
      SECRETS_KEY_PREVIOUS: KEY_A,
      OPERATOR_TOKEN: NEW_OPERATOR,
      OPERATOR_TOKEN_PREVIOUS: OPERATOR_TOKEN,
    });
    await everythingWorks("A previous");
    // Step 2: reseal, with the previous operator token (the runbook's operator may not have the new one yet).
    const job = await api("POST", "/v1/operator/reseal", { token: OPERATOR_TOKEN });
    expect(job.status, job.text).toBe(202);
    const done = await until(async () => {
      const now = await api("GET", `/v1/operator/reseal/${job.json.id}`, { token: NEW_OPERATOR });
      return now.json?.status === "running" ? undefined : now.json;
    }, "the reseal job");
    expect(done.status).toBe("succeeded");
    expect(done.counts).toMatchObject({
      secrets: 1,
      endpointSecrets: 1,
      idempotentAnswers: 1,
      executions: 1,
    });
    expect(done.counts.keptInputs).toBeGreaterThanOrEqual(1);

    // Step 3: A removed; the old operator token no longer works.
    await restart({ SECRETS_KEY: KEY_B, OPERATOR_TOKEN: NEW_OPERATOR });
    await everythingWorks("A removed");
    const old = await api("POST", "/v1/operator/reseal", { token: OPERATOR_TOKEN });
    expect(old.status).toBe(401);
    // The execution that waited through every restart opens its state under B and finishes.
    released = true;
    const finished = await until(
      async () => {
        const record = await api(
          "GET",
          `/v1/manage/workflows/${seed.heldWorkflow}/executions/${seed.heldExecution}`,
          { token: demo.memberToken },
        );
        return record.json?.status === "running" ? undefined : record.json;
      },
      "the held execution",
      60_000,
    );
    expect(finished.status).toBe("succeeded");
  }, 300_000);
});
