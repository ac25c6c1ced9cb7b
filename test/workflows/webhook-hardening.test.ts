/**
 * The webhook receiver against hostile requests (docs/api/webhooks.md#responses, docs/limits.md):
 * JSON nested deeper than 128 levels is 422 before it is parsed, a broken upload is 422 (never a
 * 500), a Content-Encoding is 415 after the 404/405 checks, form fields named like prototype keys
 * stay plain data that templates read (own keys only), and the lastNode 504 and 500 bodies carry
 * `error.executionId`.
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { call, expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import { cutOff, erroring } from "../helpers/broken-bodies";
import { createWorkflow, ECHO_URL, execution, hook, type WorkflowView } from "../helpers/workflows";

type ErrorBody = {
  error: {
    code: string;
    message: string;
    details: Record<string, unknown>[];
    requestId: string;
    executionId?: string;
  };
};

/** JSON text of `levels` nested arrays with a number inside. */
const nested = (levels: number) => `${"[".repeat(levels)}1${"]".repeat(levels)}`;
const json = { "content-type": "application/json" };

let ws: Workspace;
let mirror: WorkflowView;
let url: string;
let errors: ReturnType<typeof vi.spyOn> | undefined;

beforeAll(async () => {
  ws = await seedWorkspace();
  mirror = await createWorkflow(ws, {
    nodes: [
      { type: "webhook", responseMode: "lastNode" },
      { key: "echo", type: "set", fields: { body: "{{webhook_1.body}}" } },
    ],
    connections: [{ from: "webhook_1", to: "echo" }],
  });
  url = mirror.webhookUrls.webhook_1 as string;
});
afterEach(() => {
  errors?.mockRestore();
  errors = undefined;
});

async function executions(): Promise<number> {
  const page = await expectJson<{ data: unknown[] }>(
    await call("GET", `/v1/manage/workflows/${mirror.id}/executions?limit=100`, {
      token: ws.ownerToken,
    }),
    200,
  );
  return page.data.length;
}

describe("nesting: 128 levels pass, 129 are 422 invalid_body before parsing", () => {
  it("accepts exactly 128 and refuses 129 and 3,000 levels without a 500", async () => {
    const atLimit = await hook(url, { headers: json, body: nested(128) });
    const seen = await expectJson<{ body: unknown }>(atLimit, 200);
    expect(JSON.stringify(seen.body)).toBe(nested(128));
    errors = vi.spyOn(console, "error");
    const before = await executions();
    for (const levels of [129, 3_000]) {
      const response = await hook(url, { headers: json, body: nested(levels) });
      const body = await expectJson<ErrorBody>(response, 422);
      expect(body.error.code).toBe("invalid_body");
      expect(body.error.message).toContain("128");
    }
    expect(await executions()).toBe(before);
    expect(errors).not.toHaveBeenCalled();
  });
});

describe("a broken upload is 422 invalid_body, never a 500", () => {
  it("a body cut off before its declared length (through the runtime)", async () => {
    errors = vi.spyOn(console, "error");
    const before = await executions();
    const response = await hook(url, { headers: json, body: cutOff('{"orderId":', 100) });
    expect((await expectJson<ErrorBody>(response, 422)).error.code).toBe("invalid_body");
    expect(await executions()).toBe(before);
    expect(errors).not.toHaveBeenCalled();
  });

  it("a chunked body whose stream errors mid-way (read in the Worker's isolate)", async () => {
    const app = (await import("../../src/index")).default;
    errors = vi.spyOn(console, "error");
    for (const contentType of ["application/json", "text/plain"]) {
      const request = new Request(url, {
        method: "POST",
        headers: { "content-type": contentType },
        body: erroring('{"orderId":'),
      });
      const response = await app.fetch(request, env);
      expect((await expectJson<ErrorBody>(response, 422)).error.code).toBe("invalid_body");
    }
    expect(errors).not.toHaveBeenCalled();
  });
});

describe("Content-Encoding: 415 unsupported_media_type, after 404 and 405", () => {
  it("refuses gzip and br, starts nothing; identity passes", async () => {
    const before = await executions();
    for (const encoding of ["gzip", "br", "deflate"]) {
      const response = await hook(url, {
        headers: { ...json, "content-encoding": encoding },
        body: '{"a":1}',
      });
      const body = await expectJson<ErrorBody>(response, 415);
      expect(body.error.code).toBe("unsupported_media_type");
      expect(response.headers.get("x-execution-id")).toBeNull();
    }
    expect(await executions()).toBe(before);
    const identity = await hook(url, {
      headers: { ...json, "content-encoding": "identity" },
      body: '{"a":1}',
    });
    expect(await expectJson(identity, 200)).toEqual({ body: { a: 1 } });
  });

  it("an unknown URL is still 404 and a wrong method still 405", async () => {
    const gzip = { ...json, "content-encoding": "gzip" };
    const unknown = `https://edge.test/webhooks/${ws.slug}/no-such-flow/webhook_1`;
    expect((await hook(unknown, { headers: gzip, body: "{}" })).status).toBe(404);
    expect((await hook(url, { method: "PUT", headers: gzip, body: "{}" })).status).toBe(405);
  });
});

describe("form fields named __proto__, constructor and prototype stay plain data", () => {
  const names = ["__proto__", "constructor", "prototype", "plain"];
  const expected = names.map((name) => [name, `v-${name}`]);

  async function roundTrip(body: BodyInit): Promise<void> {
    const headers: Record<string, string> = typeof body === "string" ? json : {};
    const response = await hook(url, { headers, body });
    const seen = await expectJson<{ body: Record<string, unknown> }>(response, 200);
    expect(Object.entries(seen.body)).toEqual(expected);
    expect(Object.getPrototypeOf(seen.body)).toBe(Object.prototype);
    const record = await execution(ws, mirror.id, response.headers.get("x-execution-id") as string);
    const output = record.nodes[0]?.output as { body: Record<string, unknown> };
    expect(Object.entries(output.body)).toEqual(expected);
  }

  it("urlencoded", async () => {
    await roundTrip(new URLSearchParams(expected as [string, string][]));
  });

  it("JSON keeps such keys as parsed", async () => {
    await roundTrip(JSON.stringify(Object.fromEntries(expected)));
  });

  it("multipart", async () => {
    const form = new FormData();
    for (const [name, value] of expected) form.append(name as string, value as string);
    await roundTrip(form);
  });
});

describe("templates read a body's own __proto__ and constructor keys, never its prototype", () => {
  it("as JSON.parse made them, through the runner and its records", async () => {
    const reader = await createWorkflow(ws, {
      nodes: [
        { type: "webhook", responseMode: "lastNode" },
        {
          key: "read",
          type: "set",
          fields: {
            inner: "{{webhook_1.body.__proto__.a}}",
            proto: "{{webhook_1.body.__proto__}}",
            named: "{{webhook_1.body.constructor}}",
            text: "a={{webhook_1.body.__proto__.a}} c={{webhook_1.body.constructor}}",
            inherited: "{{webhook_1.body.toString}}",
            deeper: "{{webhook_1.body.__proto__.hasOwnProperty}}",
            headers: "{{webhook_1.headers.constructor}}",
          },
        },
      ],
      connections: [{ from: "webhook_1", to: "read" }],
    });
    const response = await hook(reader.webhookUrls.webhook_1 as string, {
      headers: json,
      body: '{"__proto__": {"a": 1}, "constructor": "x"}',
    });
    expect(await expectJson(response, 200)).toEqual({
      inner: 1,
      proto: { a: 1 },
      named: "x",
      text: "a=1 c=x",
      inherited: "",
      deeper: "",
      headers: "",
    });
  });
});

describe("lastNode errors carry executionId on the error object", () => {
  it("504 workflow_timeout", async () => {
    const slow = await createWorkflow(ws, {
      nodes: [
        { type: "webhook", responseMode: "lastNode", responseTimeoutSeconds: 1 },
        { key: "pause", type: "wait", seconds: 3600 },
      ],
      connections: [{ from: "webhook_1", to: "pause" }],
    });
    const response = await hook(slow.webhookUrls.webhook_1 as string, { body: {} });
    const body = await expectJson<ErrorBody>(response, 504);
    const executionId = response.headers.get("x-execution-id");
    expect(executionId).toMatch(/^exe_/);
    expect(body.error.executionId).toBe(executionId);
    expect(body.error.details).toEqual([{ executionId }]);
  });

  it("500 workflow_failed", async () => {
    const failing = await createWorkflow(ws, {
      nodes: [
        { type: "webhook", responseMode: "lastNode" },
        { key: "call", type: "http_request", url: `${ECHO_URL}/status/503` },
      ],
      connections: [{ from: "webhook_1", to: "call" }],
    });
    const response = await hook(failing.webhookUrls.webhook_1 as string, { body: {} });
    const body = await expectJson<ErrorBody>(response, 500);
    const executionId = response.headers.get("x-execution-id");
    expect(body.error.code).toBe("workflow_failed");
    expect(body.error.executionId).toBe(executionId);
    expect(body.error.details).toEqual([{ executionId, node: "call" }]);
  });
});
