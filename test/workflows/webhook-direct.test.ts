/**
 * A webhook call served by the Worker's entry directly (src/workflows/webhook/direct.ts) is
 * answered as the app answers it, for every outcome: the same status, body and headers (the request
 * id, the sandbox, the execution's headers, Allow, Retry-After, Location, a node's own reply). Each
 * case runs on two workflows of the same definition, one per path, so what the runner counts
 * (rate limit, deliveries, the queue) agrees; the execution ids, result tokens and a rate limit's
 * seconds are the only parts told apart. Requests the direct path must leave to the app are checked
 * to reach it untouched.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { AppBindings } from "../../src/platform/env";
import { hotApp } from "../../src/routes";
import { directWebhook } from "../../src/workflows/webhook/direct";
import { ORIGIN, seedWorkspace, type Workspace } from "../helpers/api";
import { createWorkflow, ECHO_URL, githubSignature, putSecret } from "../helpers/workflows";

const bindings = env as unknown as AppBindings;

type Answer = { status: number; headers: Record<string, string>; body: string };

/** The answer with what differs between two workflows' calls replaced by placeholders. */
async function answer(response: Response): Promise<Answer> {
  const ids = (text: string) =>
    text
      .replaceAll(/exe_[0-9A-Za-z]{24}/g, "<exe>")
      .replaceAll(/"resultToken":"[^"]+"/g, '"resultToken":"<token>"')
      .replaceAll(/"requestId":"req_[0-9a-f]{32}"/g, '"requestId":"<req>"');
  const headers = Object.fromEntries(
    [...response.headers].map(([name, value]) => [name, ids(value)]),
  );
  if (headers["retry-after"] !== undefined) headers["retry-after"] = "<s>";
  if (/^req_[0-9a-f]{32}$/.test(headers["x-request-id"] ?? "")) headers["x-request-id"] = "<req>";
  return { status: response.status, headers, body: ids(await response.text()) };
}

type Make = (url: string) => Request;

const post =
  (body: string, headers: Record<string, string> = {}, query = ""): Make =>
  (url) =>
    new Request(`${url}${query}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-request-id": "req_same", ...headers },
      body,
    });

let ws: Workspace;
beforeAll(async () => {
  ws = await seedWorkspace();
  await putSecret(ws, "HOOK_SECRET", "a-secret-of-some-length");
  await putSecret(ws, "META_APP", "meta-app-secret");
  await putSecret(ws, "META_TOKEN", "meatyhamhock");
});

/** Two started workflows of `definition`: the direct path's and the app's. */
async function pair(definition: { nodes: unknown[]; connections?: unknown[] }) {
  const urls = [];
  for (let i = 0; i < 2; i++) {
    urls.push((await createWorkflow(ws, definition)).webhookUrls.webhook_1 as string);
  }
  return { direct: urls[0] as string, app: urls[1] as string };
}

/** Each request of `makes` in turn, to the direct path and to the app; every answer compared. */
async function compare(
  urls: { direct: string; app: string },
  makes: Make[],
  on: AppBindings = bindings,
): Promise<Answer[]> {
  const seen: Answer[] = [];
  for (const make of makes) {
    const served = directWebhook(make(urls.direct), on);
    expect(served, "the direct path takes the request").not.toBeNull();
    const direct = await answer(await (served as Promise<Response>));
    const app = await answer(await hotApp.fetch(make(urls.app), on));
    expect(direct).toEqual(app);
    seen.push(direct);
  }
  return seen;
}

const setNode = { key: "done", type: "set", fields: { id: "{{webhook_1.body.id}}" } };
const toDone = [{ from: "webhook_1", to: "done" }];

describe("the direct webhook path answers as the app does", () => {
  it("immediate, lastNode, a node's reply, a respond node, a caller's request id and a query", async () => {
    const body = JSON.stringify({ id: 7 });
    const immediate = await pair({ nodes: [{ type: "webhook" }, setNode], connections: toDone });
    const [plain, renamed] = await compare(immediate, [
      post(body),
      post(body, { "x-request-id": "not well formed" }, "?a=1&a=2"),
    ]);
    expect(plain?.status).toBe(200);
    expect(plain?.headers).toMatchObject({
      "x-request-id": "req_same",
      "x-execution-id": "<exe>",
      "content-security-policy": "sandbox",
      "content-type": "application/json",
    });
    expect(renamed?.headers["x-request-id"]).toBe("<req>");
    const last = await pair({
      nodes: [{ type: "webhook", responseMode: "lastNode" }, setNode],
      connections: toDone,
    });
    expect((await compare(last, [post(body)]))[0]?.body).toBe('{"id":7}');
    const reply = {
      type: "webhook",
      responseStatus: 201,
      responseHeaders: { "x-own": "{{webhook_1.body.id}}" },
      responseBody: "got {{webhook_1.body.id}}",
    };
    const own = await pair({ nodes: [reply] });
    expect((await compare(own, [post(body)]))[0]).toMatchObject({ status: 201, body: "got 7" });
    const respond = await pair({
      nodes: [
        { type: "webhook", responseMode: "responseNode" },
        { key: "reply", type: "respond", status: 202, body: { accepted: true } },
      ],
      connections: [{ from: "webhook_1", to: "reply" }],
    });
    expect((await compare(respond, [post(body)]))[0]?.status).toBe(202);
  });

  it("failed (500), timed out (504), repeated, queued and debounced calls", async () => {
    const failing = await pair({
      nodes: [
        { type: "webhook", responseMode: "lastNode" },
        { key: "call", type: "http_request", url: `${ECHO_URL}/status/503` },
      ],
      connections: [{ from: "webhook_1", to: "call" }],
    });
    expect((await compare(failing, [post("{}")]))[0]?.status).toBe(500);
    const slow = await pair({
      nodes: [
        { type: "webhook", responseMode: "lastNode", responseTimeoutSeconds: 1 },
        { key: "pause", type: "wait", seconds: 3600 },
      ],
      connections: [{ from: "webhook_1", to: "pause" }],
    });
    const [timedOut] = await compare(slow, [post("{}")]);
    expect(timedOut?.status).toBe(504);
    expect(timedOut?.headers.location).toMatch(/\/webhooks\/results\/<exe>$/);
    const deduped = await pair({
      nodes: [{ type: "webhook", dedupe: { key: "{{webhook_1.headers.x-delivery}}" } }],
    });
    const repeat = post("{}", { "x-delivery": "d-1" });
    const [, again] = await compare(deduped, [repeat, repeat]);
    expect(again?.headers["x-deduplicated"]).toBe("true");
    const limited = await createWorkflow(ws, {
      nodes: [{ type: "webhook" }, { key: "pause", type: "wait", seconds: 3600 }],
      connections: [{ from: "webhook_1", to: "pause" }],
      concurrency: { limit: 1, queueLimit: 5 },
    });
    const limitedApp = await createWorkflow(ws, {
      nodes: [{ type: "webhook" }, { key: "pause", type: "wait", seconds: 3600 }],
      connections: [{ from: "webhook_1", to: "pause" }],
      concurrency: { limit: 1, queueLimit: 5 },
    });
    const queue = {
      direct: limited.webhookUrls.webhook_1 as string,
      app: limitedApp.webhookUrls.webhook_1 as string,
    };
    const [, queued] = await compare(queue, [post("{}"), post("{}")]);
    expect(queued?.headers["x-execution-status"]).toBe("queued");
    const debounce = { key: "{{webhook_1.body.customer}}", periodSeconds: 60 };
    const gathered = await pair({ nodes: [{ type: "webhook", debounce }] });
    const call = post(JSON.stringify({ customer: "c-1" }));
    const [, merged] = await compare(gathered, [call, call]);
    expect(merged?.headers["x-debounced"]).toBe("true");
  });

  it("refusals: 404, 405, 413, 415, 422, 429, 401 signature, handshakes", async () => {
    const simple = await pair({ nodes: [{ type: "webhook" }] });
    const gzip = post("{}", { "content-encoding": "gzip" });
    const huge = post(`"${"x".repeat(1_048_577)}"`);
    const answers = await compare(simple, [
      (url) => new Request(url, { method: "PUT", headers: { "x-request-id": "req_same" } }),
      gzip,
      huge,
      post("{broken"),
    ]);
    expect(answers.map((a) => a.status)).toEqual([405, 415, 413, 422]);
    const limited = await pair({ nodes: [{ type: "webhook", rateLimitPerMinute: 1 }] });
    const counted = await compare(limited, [post("{}"), post("{}")]);
    expect(counted.map((a) => a.status)).toEqual([200, 429]);
    expect(answers[0]?.headers.allow).toBe("POST");
    const unknown = { direct: `${ORIGIN}/webhooks/${ws.slug}/no-such/webhook_1`, app: "" };
    unknown.app = unknown.direct;
    expect((await compare(unknown, [post("{}")]))[0]?.status).toBe(404);
    const signed = await pair({
      nodes: [{ type: "webhook", verify: { preset: "github", secret: "{{secrets.HOOK_SECRET}}" } }],
    });
    const forged = post("{}", { "x-hub-signature-256": await githubSignature("wrong", "{}") });
    expect((await compare(signed, [forged]))[0]?.status).toBe(401);
    const meta = await pair({
      nodes: [
        {
          type: "webhook",
          verify: {
            preset: "meta",
            secret: "{{secrets.META_APP}}",
            verifyToken: "{{secrets.META_TOKEN}}",
          },
        },
      ],
    });
    const query = "?hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=";
    const handshake = (token: string) => (url: string) => new Request(`${url}${query}${token}`);
    const [answered, refused] = await compare(meta, [
      handshake("meatyhamhock"),
      handshake("meatyhamhoc"),
    ]);
    expect(answered).toMatchObject({ status: 200, body: "1158201444" });
    expect(refused?.status).toBe(403);
  });

  it("a runner that fails: 500 internal_error with the request id", async () => {
    const urls = await pair({ nodes: [{ type: "webhook" }] });
    const failing = () => Promise.reject(new Error("the runner is unreachable"));
    const stub = { receive: failing, attach: async () => null };
    const broken = {
      ...bindings,
      WORKFLOW_RUNNER: { idFromName: (name: string) => name, get: () => stub },
    } as unknown as AppBindings;
    const [failed] = await compare(urls, [post("{}")], broken);
    expect(failed?.status).toBe(500);
    expect(failed?.body).toContain('"code":"internal_error"');
  });
});

describe("the direct webhook path leaves to the app", () => {
  it("HEAD, encoded or other paths, and wrong settings", () => {
    const base = `${ORIGIN}/webhooks/${ws.slug}/flow/webhook_1`;
    const untaken = [
      new Request(base, { method: "HEAD" }),
      new Request(`${ORIGIN}/webhooks/${ws.slug}/fl%6Fw/webhook_1`, { method: "POST" }),
      new Request(`${base}/more`, { method: "POST" }),
      new Request(`${base}/`, { method: "POST" }),
      new Request(`${ORIGIN}/webhooks/results/exe_x`),
      new Request(`${ORIGIN}/webhook-test/${ws.slug}/flow/webhook_1`, { method: "POST" }),
      new Request(`${ORIGIN}/webhooks//flow/webhook_1`, { method: "POST" }),
    ];
    for (const request of untaken) expect(directWebhook(request, bindings)).toBe(null);
    const misconfigured = { ...bindings, SECRETS_KEY: "short" } as AppBindings;
    expect(directWebhook(new Request(base, { method: "POST" }), misconfigured)).toBe(null);
  });
});
