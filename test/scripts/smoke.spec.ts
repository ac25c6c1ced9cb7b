/**
 * The smoke's own behaviour (scripts/smoke.mjs, docs/operations.md#smoke) against a stand-in
 * server that answers as told: each step printed with its time, the first failure ending the run
 * with what was expected and what came, and the throwaway workspace deleted whatever happened,
 * also when the run is stopped half-way. The smoke passing against the real service is
 * `npm run test:smoke` (scripts/smoke-local.mjs), which `npm test` runs too.
 */
import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const ROOT = path.join(import.meta.dirname, "..", "..");
const OPERATOR = `op-${crypto.randomUUID()}`;
const MEMBER = `mt_${crypto.randomUUID()}`;

/** `afterMs`: answered that late; "hang": never answered. */
type Answer = { status: number; body?: unknown; text?: string; afterMs?: number } | "hang";
type Seen = { method: string; path: string; authorization: string | undefined };

const servers: http.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

/** A server answering `route → answer` ("METHOD /path"); unknown routes get 404. */
async function standIn(routes: Record<string, Answer | (() => Answer)>) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const key = `${req.method} ${req.url}`;
    seen.push({
      method: req.method ?? "",
      path: req.url ?? "",
      authorization: req.headers.authorization,
    });
    req.resume();
    const found = routes[key];
    const answer =
      typeof found === "function"
        ? found()
        : (found ?? { status: 404, body: { error: { code: "not_found" } } });
    if (answer === "hang") return;
    const text = answer.text ?? (answer.body === undefined ? "" : JSON.stringify(answer.body));
    setTimeout(() => {
      res.writeHead(answer.status, {
        "content-type": answer.text ? "text/javascript" : "application/json",
      });
      res.end(text);
    }, answer.afterMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  servers.push(server);
  return { base, seen };
}

/** The steps before the first that makes something: the service is up and serves its assets. */
const UP: Record<string, Answer> = {
  "GET /health": { status: 200, body: { ok: true } },
  "GET /widget.js": { status: 200, text: 'x.src=new URL("/assets/widget-ABC123.js",e.src)' },
  "GET /assets/widget-ABC123.js": { status: 200, text: "/* widget */" },
};
const CREATED = {
  status: 201,
  body: { workspace: { id: "ws_smoke" }, member: { id: "mem_smoke" }, memberToken: MEMBER },
} satisfies Answer;

/** Runs the smoke against `base`; resolves with its exit code and output. */
function smoke(base: string, env: Record<string, string> = { OPERATOR_TOKEN: OPERATOR }) {
  const child = spawn(process.execPath, [path.join(ROOT, "scripts", "smoke.mjs"), base], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const done = new Promise<{ code: number | null; output: string }>((resolve) =>
    child.once("close", (code) => resolve({ code, output })),
  );
  return { child: child as ChildProcess, done, output: () => output };
}

describe("npm run smoke", () => {
  it("refuses to start without OPERATOR_TOKEN, calling nothing", async () => {
    const server = await standIn(UP);
    const run = await smoke(server.base, {}).done;
    expect(run.code).toBe(2);
    expect(run.output).toContain("OPERATOR_TOKEN is not set");
    expect(server.seen).toEqual([]);
  });

  it("prints each step with its time and stops at the first failure with what was expected and what came", async () => {
    const refused = { error: { code: "invalid_key", message: "The key is missing." } };
    const server = await standIn({
      ...UP,
      "POST /v1/operator/workspaces": { status: 401, body: refused },
    });
    const run = await smoke(server.base).done;
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/✓ service up \(GET \/health\) \(\d+ ms\)/);
    expect(run.output).toMatch(/✓ static assets served .*widget-ABC123\.js \(\d+ ms\)/);
    expect(run.output).toContain(
      `POST /v1/operator/workspaces: expected 201, got 401: ${JSON.stringify(refused)}`,
    );
    expect(run.output).toMatch(/\[smoke\] FAILED/);
    // Nothing after the failure was tried; nothing was made, so nothing is deleted.
    expect(server.seen.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /health",
      "GET /widget.js",
      "GET /assets/widget-ABC123.js",
      "POST /v1/operator/workspaces",
    ]);
    expect(server.seen[3]?.authorization).toBe(`Bearer ${OPERATOR}`);
  });

  it("deletes the throwaway workspace after a later step failed", async () => {
    let deleted = false;
    const server = await standIn({
      ...UP,
      "POST /v1/operator/workspaces": CREATED,
      "POST /v1/manage/agents": { status: 500, body: { error: { code: "internal_error" } } },
      "DELETE /v1/operator/workspaces/ws_smoke": () => {
        deleted = true;
        return { status: 204 };
      },
      "GET /v1/manage/agents": () => ({ status: deleted ? 401 : 200, body: {} }),
    });
    const run = await smoke(server.base).done;
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/✓ throwaway workspace created: ws_smoke \(\d+ ms\)/);
    expect(run.output).toContain("POST /v1/manage/agents: expected 201, got 500");
    expect(run.output).toMatch(/✓ throwaway workspace deleted \(\d+ ms\)/);
    const removal = server.seen.find((r) => r.method === "DELETE");
    expect(removal).toEqual({
      method: "DELETE",
      path: "/v1/operator/workspaces/ws_smoke",
      authorization: `Bearer ${OPERATOR}`,
    });
    // Neither token is printed.
    expect(run.output).not.toContain(OPERATOR);
    expect(run.output).not.toContain(MEMBER);
  });

  it("says so when the workspace could not be deleted", async () => {
    const server = await standIn({
      ...UP,
      "POST /v1/operator/workspaces": CREATED,
      "POST /v1/manage/agents": { status: 400, body: { error: { code: "invalid_request" } } },
      "DELETE /v1/operator/workspaces/ws_smoke": {
        status: 500,
        body: { error: { code: "internal_error" } },
      },
    });
    const run = await smoke(server.base).done;
    expect(run.code).toBe(1);
    expect(run.output).toContain("DELETE /v1/operator/workspaces/ws_smoke: expected 204, got 500");
    expect(run.output).toContain("Delete it by hand: DELETE /v1/operator/workspaces/ws_smoke");
  });

  it("deletes the throwaway workspace when stopped half-way", async () => {
    const server = await standIn({
      ...UP,
      "POST /v1/operator/workspaces": CREATED,
      "POST /v1/manage/agents": "hang",
      "DELETE /v1/operator/workspaces/ws_smoke": { status: 204 },
      "GET /v1/manage/agents": { status: 401, body: {} },
    });
    const run = smoke(server.base);
    await expect
      .poll(() => server.seen.some((r) => r.path === "/v1/manage/agents"), { timeout: 10_000 })
      .toBe(true);
    run.child.kill("SIGTERM");
    const { code, output } = await run.done;
    expect(code).toBe(1);
    expect(output).toContain("SIGTERM: cleaning up");
    expect(output).toMatch(/✓ throwaway workspace deleted/);
    expect(
      server.seen.some(
        (r) => r.method === "DELETE" && r.path === "/v1/operator/workspaces/ws_smoke",
      ),
    ).toBe(true);
  });

  it("deletes the workspace it was making when stopped before the answer came", async () => {
    const server = await standIn({
      ...UP,
      "POST /v1/operator/workspaces": { ...CREATED, afterMs: 1_000 },
      "DELETE /v1/operator/workspaces/ws_smoke": { status: 204 },
      "GET /v1/manage/agents": { status: 401, body: {} },
    });
    const run = smoke(server.base);
    await expect
      .poll(() => server.seen.some((r) => r.path === "/v1/operator/workspaces"), {
        timeout: 10_000,
      })
      .toBe(true);
    run.child.kill("SIGTERM");
    const { code, output } = await run.done;
    expect(code).toBe(1);
    expect(output).toMatch(/✓ throwaway workspace deleted/);
    expect(server.seen).toContainEqual({
      method: "DELETE",
      path: "/v1/operator/workspaces/ws_smoke",
      authorization: `Bearer ${OPERATOR}`,
    });
  });
});
