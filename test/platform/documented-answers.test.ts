/**
 * Every answer is documented, and what is documented is answered (docs/errors.md): each operation
 * of the OpenAPI document lists, per status, the codes it can return; an unknown method on a known
 * path gets 405 with `Allow`; routes refuse query parameters they do not take, and say so; ids
 * over 64 characters get the 400 the document lists.
 */
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../src/platform/errors";
import { call, expectJson, OPERATOR_TOKEN, seedWorkspace } from "../helpers/api";
import { codesAt, type OpenApiDocument } from "../helpers/openapi";

async function documentOf(): Promise<OpenApiDocument> {
  return expectJson<OpenApiDocument>(await call("GET", "/openapi.json"), 200);
}

describe("the OpenAPI document lists error codes per operation", () => {
  it("names each operation's own codes and the common ones, at their statuses", async () => {
    const document = await documentOf();
    const create = ["/v1/widget/launches", "post"] as const;
    expect(codesAt(document, ...create, 409).sort()).toEqual(
      ["idempotency_key_in_use", "too_many_pending_links"].sort(),
    );
    expect(codesAt(document, ...create, 422)).toEqual(["idempotency_key_reused"]);
    expect(codesAt(document, ...create, 400).sort()).toEqual(
      ["credential_in_query", "invalid_parameters", "invalid_request"].sort(),
    );
    expect(codesAt(document, ...create, 403).sort()).toEqual(
      ["browser_not_allowed", "forbidden_flow", "insufficient_scope"].sort(),
    );
    expect(codesAt(document, ...create, 413)).toEqual(["invalid_request"]);
    expect(codesAt(document, ...create, 429)).toEqual(["rate_limited"]);
    expect(codesAt(document, "/v1/manage/agents/{id}", "get", 400)).toContain("invalid_request");
    const webhook = ["/webhooks/{workspace}/{workflow}/{node}", "post"] as const;
    expect(codesAt(document, ...webhook, 504)).toEqual(["workflow_timeout"]);
    expect(codesAt(document, ...webhook, 415)).toEqual(["unsupported_media_type"]);
    const deletion = ["/v1/operator/workspaces/{id}", "delete"] as const;
    expect(codesAt(document, ...deletion, 404)).toEqual(["not_found"]);
    expect(codesAt(document, ...deletion, 401)).toEqual(["invalid_key"]);
    expect(codesAt(document, ...deletion, 400).sort()).toEqual(
      ["credential_in_query", "invalid_request"].sort(),
    );
  });

  it("documents, for every operation, only codes that exist, at statuses they are answered with", async () => {
    const document = await documentOf();
    let operations = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        operations += 1;
        expect(codesAt(document, path, method, 500), `${method} ${path}`).toContain(
          "internal_error",
        );
        for (const status of Object.keys(operation.responses).map(Number)) {
          if (status < 400) continue;
          const codes = codesAt(document, path, method, status);
          expect(codes.length, `${method} ${path} ${status}`).toBeGreaterThan(0);
          for (const code of codes) {
            const known = ERROR_CODES[code as keyof typeof ERROR_CODES];
            expect(known?.status, `${code} at ${status}`).toContain(status);
          }
        }
      }
    }
    expect(operations).toBeGreaterThan(30);
  });
});

describe("answers the document promises", () => {
  it("an unknown method on a known path: 405 method_not_allowed with Allow", async () => {
    const ws = await seedWorkspace();
    for (const [method, path, token, allow] of [
      ["PATCH", "/v1/manage/agents", ws.ownerToken, "GET, HEAD, POST"],
      ["PUT", "/v1/widget/launches/lnk_x", ws.widgetKey, "DELETE, GET, HEAD"],
      ["DELETE", "/health", undefined, "GET, HEAD"],
      ["GET", "/v1/operator/workspaces/ws_x", OPERATOR_TOKEN, "DELETE"],
    ] as const) {
      const response = await call(method, path, { token });
      const body = await expectJson<{ error: { code: string } }>(response, 405);
      expect([path, body.error.code, response.headers.get("allow")]).toEqual([
        path,
        "method_not_allowed",
        allow,
      ]);
    }
    expect((await call("GET", "/v1/manage/no-such-thing", { token: ws.ownerToken })).status).toBe(
      404,
    );
    // A trailing slash names no route: 404, not a 405 that lists the method just used.
    expect((await call("GET", "/v1/manage/agents/", { token: ws.ownerToken })).status).toBe(404);
  });

  it("a route refuses a query parameter it does not take, and documents that 400", async () => {
    const ws = await seedWorkspace();
    const document = await documentOf();
    for (const [method, path, operation] of [
      ["GET", "/v1/manage/agents?offset=5", "/v1/manage/agents"],
      ["GET", "/v1/manage/members?foo=1", "/v1/manage/members"],
      ["GET", "/v1/manage/me?foo=1", "/v1/manage/me"],
      ["GET", "/v1/manage/widget-keys?status=active", "/v1/manage/widget-keys"],
      ["GET", "/v1/manage/secrets?x=", "/v1/manage/secrets"],
      ["GET", "/v1/manage/workflows?page=2", "/v1/manage/workflows"],
      ["GET", `/v1/manage/agents/${ws.agentId}?x=1`, "/v1/manage/agents/{id}"],
      ["GET", "/v1/manage/usage?month=1", "/v1/manage/usage"],
      ["GET", "/v1/manage/passkeys?all=1", "/v1/manage/passkeys"],
      ["POST", "/v1/manage/passkeys/options?x=1", "/v1/manage/passkeys/options"],
      ["GET", "/v1/manage/event-endpoints?x=1", "/v1/manage/event-endpoints"],
      ["DELETE", "/v1/manage/sessions?x=1", "/v1/manage/sessions"],
      [
        "GET",
        `/v1/manage/agents/${ws.agentId}/channels?type=widget`,
        "/v1/manage/agents/{id}/channels",
      ],
    ] as const) {
      const body = await expectJson<{ error: { code: string; details: { code: string }[] } }>(
        await call(method, path, { token: ws.ownerToken }),
        400,
      );
      expect([path, body.error.code, body.error.details[0]?.code]).toEqual([
        path,
        "invalid_request",
        "unknown_field",
      ]);
      expect(codesAt(document, operation, method.toLowerCase(), 400), path).toContain(
        "invalid_request",
      );
    }
  });

  it("every change behind a member token documents 403 cross_site_request (the session cookie's), no read does", async () => {
    const document = await documentOf();
    const listed: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const security = (operation as { security?: Record<string, unknown>[] }).security ?? [];
        if (!security.some((entry) => "memberToken" in entry)) continue;
        const documented = codesAt(document, path, method, 403).includes("cross_site_request");
        listed.push(`${method} ${path}: ${documented}`);
      }
    }
    expect(listed.filter((line) => line.startsWith("get ") !== line.endsWith("false"))).toEqual([]);
    expect(listed.length).toBeGreaterThan(40);
  });

  it("an id over 64 characters gets the documented 400 invalid_request", async () => {
    const ws = await seedWorkspace();
    const long = "a".repeat(65);
    const deletion = await expectJson<{ error: { code: string } }>(
      await call("DELETE", `/v1/operator/workspaces/${long}`, { token: OPERATOR_TOKEN }),
      400,
    );
    expect(deletion.error.code).toBe("invalid_request");
    const body = await expectJson<{ error: { code: string } }>(
      await call("GET", `/v1/manage/agents/${long}`, { token: ws.ownerToken }),
      400,
    );
    expect(body.error.code).toBe("invalid_request");
    expect(codesAt(await documentOf(), "/v1/manage/agents/{id}", "get", 400)).toContain(
      "invalid_request",
    );
  });
});
