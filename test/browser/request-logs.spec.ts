/**
 * One-time tokens never reach the platform's request logs (docs/security.md#capability-urls). With
 * `[observability] enabled`, the platform keeps every request's full URL; the local runtime does
 * too, in its state folder (`v3/observability/`), which this spec reads after the fact: a sign-in
 * link opened in Chromium (its token in the fragment, posted by the page) and a result handle
 * fetched with its token in `Authorization` leave no trace of either token there, while a marker
 * sent in a query string is found (so the store was written and read).
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, type DemoWorkspace, seedDemoWorkspace } from "../../scripts/demo-seed.mjs";
import { fetchApi } from "../../scripts/local-server.mjs";
import { launchChromium } from "./chromium";
import { need, signIn } from "./dashboard-page";
import { startWranglerServer, type WranglerServer } from "./wrangler-server";

let server: WranglerServer | undefined;
let browser: Browser | undefined;
let api: Api;
let demo: DemoWorkspace;

beforeAll(async () => {
  server = await startWranglerServer();
  api = fetchApi(server.base);
  demo = await seedDemoWorkspace(api, server.operatorToken);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Every byte the local runtime's request log store holds, as text (SQLite files and their WAL). */
function requestLogText(): string {
  const root = path.join(need(server?.persistDir, "the server's state"), "v3", "observability");
  const files = fs.readdirSync(root, { recursive: true, encoding: "utf8" });
  return files
    .map((file) => path.join(root, file))
    .filter((file) => fs.statSync(file).isFile())
    .map((file) => fs.readFileSync(file).toString("latin1"))
    .join("\n");
}

/**
 * The request log text once a request sent after everything else is in it: a query-string
 * marker, which the store keeps like any URL.
 */
async function requestLogAfterAll(): Promise<string> {
  const marker = `probe${randomBytes(8).toString("hex")}`;
  const base = need(server, "server").base;
  await (await fetch(`${base}/health?marker=${marker}`)).body?.cancel();
  const deadline = Date.now() + 20_000;
  for (;;) {
    const text = requestLogText();
    if (text.includes(marker)) return text;
    if (Date.now() > deadline) throw new Error("the request log store never showed the marker");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe("the platform's request logs", () => {
  it("never hold a sign-in link's token: the page posts it from the fragment", async () => {
    const link = await api("POST", "/v1/manage/sign-in-links", {
      token: demo.memberToken,
      body: {},
    });
    expect(link.status, link.text).toBe(201);
    const url = new URL(link.json.url);
    const token = new URLSearchParams(url.hash.slice(1)).get("token") ?? "";
    expect([url.pathname, url.search, token.startsWith("si_")]).toEqual(["/sign-in", "", true]);
    const signedIn = await signIn(need(browser, "browser"), need(server, "server").base, url.href);
    expect(signedIn.problems).toEqual([]);
    await signedIn.page.context().close();
    expect((await requestLogAfterAll()).includes(token), "the token is in the request log").toBe(
      false,
    );
  });

  it("never hold a result handle's token: it is sent in Authorization", async () => {
    const created = await api("POST", "/v1/manage/workflows", {
      token: demo.memberToken,
      body: {
        name: "Slow",
        slug: "slow",
        nodes: [
          { type: "webhook", responseMode: "lastNode", responseTimeoutSeconds: 1 },
          { key: "pause", type: "wait", seconds: 2 },
        ],
        connections: [{ from: "webhook_1", to: "pause" }],
      },
    });
    expect(created.status, created.text).toBe(201);
    const started = await api("POST", `/v1/manage/workflows/${created.json.id}/start`, {
      token: demo.memberToken,
    });
    expect(started.status, started.text).toBe(200);
    const timedOut = await fetch(created.json.webhookUrls.webhook_1, { method: "POST" });
    const body = (await timedOut.json()) as { error: { resultUrl: string; resultToken: string } };
    expect(timedOut.status).toBe(504);
    const { resultUrl, resultToken } = body.error;
    const secret = resultToken.split(".")[1] ?? "";
    expect(secret).toHaveLength(43);
    const result = await fetch(resultUrl, { headers: { authorization: `Bearer ${resultToken}` } });
    expect([200, 202]).toContain(result.status);
    await result.body?.cancel();
    expect((await requestLogAfterAll()).includes(secret), "the token is in the request log").toBe(
      false,
    );
  });
});
