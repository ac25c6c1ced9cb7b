/**
 * Schema fuzz test (docs/errors.md): at least 6,000 requests generated with fast-check from the
 * OpenAPI document the Worker serves, across every operation, mixing well-formed calls with hostile
 * ones (test/helpers/fuzz-requests.ts). For every answer: no 5xx, every error is the one envelope
 * with a known code at one of that code's statuses and the request id, and every status is one the
 * document lists for the operation. The seed is fixed, so a failure reproduces; the clock moves a
 * second per request so rate limits do not turn the run into a stream of 429s.
 */
import { exports } from "cloudflare:workers";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ERROR_CODES, type ErrorCode } from "../../src/platform/errors";
import { call, expectJson, launchBody, OPERATOR_TOKEN, seedWorkspace } from "../helpers/api";
import { createLaunch } from "../helpers/chat";
import { type FuzzSeed, type Operation, operationsOf, requestFor } from "../helpers/fuzz-requests";
import { createWorkflow, hook, putSecret } from "../helpers/workflows";

const RUNS = 6_000;
const SEED = 20_261_123;

let operations: Operation[] = [];
let seed: FuzzSeed;

beforeAll(async () => {
  operations = operationsOf(await expectJson(await call("GET", "/openapi.json"), 200));
  const ws = await seedWorkspace();
  const link = await createLaunch(ws);
  await putSecret(ws, "FUZZ", "fuzz-secret-value");
  const flow = await createWorkflow(ws, {
    nodes: [{ type: "webhook" }, { key: "ok", type: "set", fields: { ok: true } }],
    connections: [{ from: "webhook_1", to: "ok" }],
  });
  const { executionId } = await expectJson<{ executionId: string }>(
    await hook(flow.webhookUrls.webhook_1 as string, { body: {} }),
    200,
  );
  // Victims: ids a generated DELETE may remove without taking the seeded credentials with it.
  const manage = async (path: string, body: unknown) =>
    (
      await expectJson<{ id: string }>(
        await call("POST", path, { token: ws.ownerToken, body }),
        201,
      )
    ).id;
  const victimAgent = await manage("/v1/manage/agents", { name: "V", mode: "responder" });
  const victimKey = await manage("/v1/manage/widget-keys", { name: "victim" });
  const victimFlow = await createWorkflow(ws, { nodes: [{ type: "webhook" }] }, { start: false });
  const workflowBody = {
    name: "F",
    slug: "fuzz-flow",
    nodes: [{ type: "webhook" }],
    connections: [],
  };
  seed = {
    widgetKey: ws.widgetKey,
    ownerToken: ws.ownerToken,
    operatorToken: OPERATOR_TOKEN,
    ids: {
      id: [link.id, victimAgent, victimKey, victimFlow.id, ws.ownerId, ws.agentId],
      name: ["FUZZ", "OTHER_NAME"],
      executionId: [executionId],
      workspace: [ws.slug],
      workflow: [flow.slug],
      node: ["webhook_1"],
    },
    bodies: {
      "POST /v1/widget/launches": [launchBody(ws), launchBody(ws, { expiresInSeconds: 300 })],
      "POST /v1/operator/workspaces": [{ name: "W", owner: { email: "o@x.example", name: "O" } }],
      "POST /v1/manage/members": [{ email: "m@x.example", name: "M", role: "member" }],
      "POST /v1/manage/widget-keys": [{ name: "k", flowIds: [ws.agentId] }],
      "POST /v1/manage/agents": [{ name: "A", mode: "initiator", greeting: "Hi" }],
      "PATCH /v1/manage/agents/{id}": [{ name: "B", instructions: "Be brief." }],
      "POST /v1/manage/agents/{id}/channels": [{ type: "widget", name: "c" }],
      "PUT /v1/manage/secrets/{name}": [{ value: "v" }],
      "POST /v1/manage/workflows": [workflowBody],
      "PUT /v1/manage/workflows/{id}": [workflowBody],
      "POST /v1/chat/sessions": [{ token: link.token }],
      "POST /webhooks/{workspace}/{workflow}/{node}": [{ orderId: 1042 }, [1, 2], "text"],
    },
  };
  vi.useFakeTimers({ toFake: ["Date"] });
});

afterAll(() => {
  vi.useRealTimers();
});

/** Whether `url`'s path (after the URL parser removed dot segments) is still the operation's. */
function reachesOperation(op: Operation, url: URL): boolean {
  const pattern = op.path.replace(/\{[^}]+\}/g, "[^/]+");
  return new RegExp(`^${pattern}$`).test(url.pathname);
}

/**
 * What is wrong with one answer, or null. An id such as `..` or an empty one makes the URL name
 * another path; the answer must still be the envelope, but it is that path's, not the operation's.
 */
async function problemWith(op: Operation, url: URL, response: Response): Promise<string | null> {
  const status = response.status;
  if (status >= 500) return `status ${status}: ${await response.text()}`;
  if (!response.headers.get("x-request-id")) return `no x-request-id on ${status}`;
  if (reachesOperation(op, url) && !op.statuses.has(status)) {
    return `status ${status} is not in the document`;
  }
  if (status < 400) {
    await response.body?.cancel();
    return null;
  }
  const text = await response.text();
  let body: {
    error?: { code?: string; message?: unknown; details?: unknown; requestId?: unknown };
  };
  try {
    body = JSON.parse(text);
  } catch {
    return `status ${status} without a JSON body: ${text.slice(0, 200)}`;
  }
  const error = body.error;
  const known = error?.code ? ERROR_CODES[error.code as ErrorCode] : undefined;
  if (!known) return `unknown error code in ${text.slice(0, 200)}`;
  if (!(known.status as readonly number[]).includes(status)) {
    return `${error?.code} answered with ${status}`;
  }
  if (typeof error?.message !== "string" || !Array.isArray(error.details)) {
    return `not the envelope: ${text.slice(0, 200)}`;
  }
  if (typeof error.requestId !== "string") return "no requestId in the envelope";
  return null;
}

describe("schema fuzz (fast-check over /openapi.json)", () => {
  it(`answers ${RUNS} generated requests over every operation with no 5xx and only the envelope`, {
    timeout: 240_000,
  }, async () => {
    expect(operations.length).toBeGreaterThanOrEqual(31);
    const sent = new Map<string, number>();
    // Every problem is kept (not only the first), one example per operation and kind.
    const problems = new Map<string, string>();
    let clock = Date.now();
    // Generated up front from the fixed seed, then sent 8 at a time: answers are checked one by
    // one, so the order of sending changes nothing but the time the run takes.
    const requests = fc.sample(
      fc.constantFrom(...operations).chain((op) => fc.tuple(fc.constant(op), requestFor(op, seed))),
      { numRuns: RUNS, seed: SEED },
    );
    let next = 0;
    const worker = async () => {
      for (let index = next++; index < requests.length; index = next++) {
        const [op, [target, init]] = requests[index] as (typeof requests)[number];
        clock += 1_000;
        vi.setSystemTime(clock);
        const key = `${op.method} ${op.path}`;
        sent.set(key, (sent.get(key) ?? 0) + 1);
        const url = new URL(`https://edge.test${target}`);
        const response = await exports.default.fetch(new Request(url, init));
        const problem = await problemWith(op, url, response);
        const kind = problem && `${key}: ${problem.replace(/:.*$/s, "")}`;
        if (kind && !problems.has(kind)) {
          problems.set(
            kind,
            `${init.method} ${target.slice(0, 200)} ${JSON.stringify(init.headers)} ${String(init.body).slice(0, 200)} → ${problem?.slice(0, 300)}`,
          );
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(requests).toHaveLength(RUNS);
    expect([...problems.values()]).toEqual([]);
    // Every operation was exercised, each many times.
    expect(sent.size).toBe(operations.length);
    expect(Math.min(...sent.values())).toBeGreaterThan(50);
  });
});
