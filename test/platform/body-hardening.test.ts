/**
 * The JSON body middleware of the launch, chat and management routes against hostile bodies
 * (docs/limits.md#nesting, docs/errors.md): nesting deeper than 64 levels is refused from the text,
 * before anything parses or walks it; a body stream that breaks mid-way is a 400, never a 500; a
 * Content-Encoding other than identity is a 415.
 */
import { env, exports } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  call,
  expectJson,
  launchBody,
  ORIGIN,
  seedWorkspace,
  type Workspace,
} from "../helpers/api";
import { cutOff, erroring } from "../helpers/broken-bodies";

type ErrorBody = {
  error: { code: string; message: string; details: Record<string, unknown>[]; requestId: string };
};

/** JSON text of `levels` nested objects (`{"a":{"a":…1…}}`), each level one bracket deep. */
function nested(levels: number): string {
  return `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
}

/** A launch body whose total nesting (the body object included) is exactly `depth` levels. */
function launchText(ws: Workspace, depth: number): string {
  const { flowId, channelId } = launchBody(ws);
  // body (1) → parameters (2) → the nested value (depth - 2 levels)
  return `{"flowId":${JSON.stringify(flowId)},"channelId":${JSON.stringify(channelId)},"parameters":{"plan":"basic","deep":${nested(depth - 2)}}}`;
}

/** A workflow definition whose total nesting is exactly `depth` levels, in a set node's fields. */
function workflowText(depth: number, slug: string): string {
  // body (1) → nodes (2) → node (3) → fields and what it holds (depth - 3 levels)
  return `{"name":"Deep","slug":"${slug}","nodes":[{"type":"webhook"},{"key":"s","type":"set","fields":${nested(depth - 3)}}],"connections":[{"from":"webhook_1","to":"s"}]}`;
}

const json = { "content-type": "application/json" };

async function expectTooDeep(response: Response): Promise<void> {
  const body = await expectJson<ErrorBody>(response, 400);
  expect(body.error.code).toBe("invalid_request");
  expect(body.error.details).toEqual([
    { field: "body", code: "too_deep", message: expect.stringContaining("64") },
  ]);
}

async function expectNotTooDeep(response: Response): Promise<void> {
  const text = await response.text();
  expect(response.status, text).toBeLessThan(500);
  expect(text).not.toContain("too_deep");
}

let ws: Workspace;
let errors: ReturnType<typeof vi.spyOn>;
beforeAll(async () => {
  ws = await seedWorkspace();
});
afterEach(() => {
  errors?.mockRestore();
});

/** Watches console.error: an ApiError is never logged, only a fault answered as internal_error. */
function watchErrors() {
  errors = vi.spyOn(console, "error");
  return () => expect(errors).not.toHaveBeenCalled();
}

describe("nesting: 64 levels pass, 65 are refused before parsing (400 invalid_request too_deep)", () => {
  it("launch create: exactly 64 passes the check, 65 and parameters 4,000 deep are refused", async () => {
    const create = (body: string) =>
      call("POST", "/v1/widget/launches", { token: ws.widgetKey, body, headers: json });
    const atLimit = await create(launchText(ws, 64));
    expect((await expectJson<ErrorBody>(atLimit, 400)).error.code).toBe("invalid_parameters");
    await expectTooDeep(await create(launchText(ws, 65)));
    const noLogs = watchErrors();
    await expectTooDeep(await create(launchText(ws, 4_000)));
    noLogs();
  });

  it("management workflow create: exactly 64 is created, 65 and 5,000 deep are refused", async () => {
    const create = (body: string) =>
      call("POST", "/v1/manage/workflows", { token: ws.ownerToken, body, headers: json });
    expect((await create(workflowText(64, "deep-64"))).status).toBe(201);
    await expectTooDeep(await create(workflowText(65, "deep-65")));
    const noLogs = watchErrors();
    await expectTooDeep(await create(workflowText(5_000, "deep-5000")));
    noLogs();
  });

  it("chat sessions: 64 passes the check, 65 is refused", async () => {
    const open = (depth: number) =>
      call("POST", "/v1/chat/sessions", { body: `{"token":${nested(depth - 1)}}`, headers: json });
    await expectNotTooDeep(await open(64));
    await expectTooDeep(await open(65));
  });

  it("brackets inside strings do not count", async () => {
    const response = await call("POST", "/v1/chat/sessions", {
      body: JSON.stringify({ token: "[".repeat(1_000) }),
      headers: json,
    });
    await expectNotTooDeep(response);
  });
});

describe("the body is parsed once", () => {
  it("the middleware, the route's validation and the handler share one JSON.parse", async () => {
    const text = JSON.stringify(launchBody(ws, { globalTask: `once ${crypto.randomUUID()}` }));
    const parse = vi.spyOn(JSON, "parse");
    try {
      const response = await call("POST", "/v1/widget/launches", {
        token: ws.widgetKey,
        body: text,
        headers: json,
      });
      expect(response.status).toBe(201);
      expect(parse.mock.calls.filter(([input]) => input === text)).toHaveLength(1);
    } finally {
      parse.mockRestore();
    }
  });
});

describe("a body stream that breaks mid-way is 400 invalid_request, never a 500", () => {
  const cases: [string, string, () => Record<string, string>][] = [
    ["launch create", "/v1/widget/launches", () => ({ authorization: `Bearer ${ws.widgetKey}` })],
    [
      "management create",
      "/v1/manage/workflows",
      () => ({ authorization: `Bearer ${ws.ownerToken}` }),
    ],
    ["chat sessions", "/v1/chat/sessions", () => ({})],
  ];

  async function expectBroken(response: Response): Promise<void> {
    const body = await expectJson<ErrorBody>(response, 400);
    expect(body.error.code).toBe("invalid_request");
    expect(body.error.details).toEqual([
      expect.objectContaining({ field: "body", code: "invalid_json" }),
    ]);
  }

  for (const [name, path, auth] of cases) {
    it(`${name}: a chunked body whose stream errors (read in the Worker's isolate)`, async () => {
      const app = (await import("../../src/index")).default;
      const noLogs = watchErrors();
      const request = new Request(`${ORIGIN}${path}`, {
        method: "POST",
        headers: { ...auth(), ...json },
        body: erroring('{"name":"half'),
      });
      await expectBroken(await app.fetch(request, env));
      noLogs();
    });

    it(`${name}: a body cut off before its declared length (through the runtime)`, async () => {
      const noLogs = watchErrors();
      const request = new Request(`${ORIGIN}${path}`, {
        method: "POST",
        headers: { ...auth(), ...json },
        body: cutOff('{"name":"half', 100),
      });
      await expectBroken(await exports.default.fetch(request));
      noLogs();
    });
  }
});

describe("Content-Encoding other than identity is 415 unsupported_media_type", () => {
  it("launch create and management create refuse gzip; identity passes", async () => {
    const gzip = { ...json, "content-encoding": "gzip" };
    const launch = await call("POST", "/v1/widget/launches", {
      token: ws.widgetKey,
      body: JSON.stringify(launchBody(ws)),
      headers: gzip,
    });
    const refused = await expectJson<ErrorBody>(launch, 415);
    expect(refused.error.code).toBe("unsupported_media_type");
    expect(refused.error.details).toEqual([
      expect.objectContaining({ field: "content-encoding", code: "unsupported_media_type" }),
    ]);
    const manage = await call("POST", "/v1/manage/workflows", {
      token: ws.ownerToken,
      body: workflowText(5, "gzipped"),
      headers: { ...json, "content-encoding": "br" },
    });
    expect((await expectJson<ErrorBody>(manage, 415)).error.code).toBe("unsupported_media_type");
    const identity = await call("POST", "/v1/widget/launches", {
      token: ws.widgetKey,
      body: JSON.stringify(launchBody(ws)),
      headers: { ...json, "content-encoding": "Identity" },
    });
    expect(identity.status).toBe(201);
  });
});
