/**
 * Where the chat may be shown (docs/security.md#chat-embedding): the hosted page in no frame, the
 * widget's embedded chat only in pages of its channel's allowed origins (and the dashboard's), the
 * socket only to the service's origin, static files never sniffed; the widget's question
 * (`GET /v1/chat/channels/{channelId}/embedding`) and the session open that keeps a link to its
 * own channel's frame.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, ORIGIN, seedWorkspace, type Workspace } from "../helpers/api";
import { createLaunch, lookUp, openSession } from "../helpers/chat";
import { expectError } from "../helpers/errors";

/** The page's policy as directive → sources. */
function policy(response: Response): Map<string, string[]> {
  const header = response.headers.get("content-security-policy") ?? "";
  return new Map(
    header.split(";").map((part) => {
      const [name = "", ...sources] = part.trim().split(/\s+/);
      return [name, sources] as const;
    }),
  );
}

async function allowOnly(ws: Workspace, allowedOrigins: string[]): Promise<void> {
  const response = await call("PATCH", `/v1/manage/agents/${ws.agentId}/channels/${ws.channelId}`, {
    token: ws.ownerToken,
    body: { allowedOrigins },
  });
  expect(response.status, await response.text()).toBe(200);
}

/** A second widget channel of the workspace's agent, with its allowed origins. */
async function addChannel(ws: Workspace, allowedOrigins: string[]): Promise<string> {
  const response = await call("POST", `/v1/manage/agents/${ws.agentId}/channels`, {
    token: ws.ownerToken,
    body: { type: "widget", name: "Partner site", allowedOrigins },
  });
  return ((await response.json()) as { id: string }).id;
}

const askEmbedding = (channelId: string, origin: string) =>
  call("GET", `/v1/chat/channels/${channelId}/embedding?origin=${encodeURIComponent(origin)}`);

async function allowed(channelId: string, origin: string): Promise<boolean> {
  const response = await askEmbedding(channelId, origin);
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { allowed: boolean }).allowed;
}

describe("the chat page's policy", () => {
  it("the hosted page may be framed by no page, and connects only to its own origin", async () => {
    const response = await call("GET", "/chat");
    await response.text();
    const csp = policy(response);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    // Its API calls ('self') and the socket's origin, named, and no other socket host.
    expect(csp.get("connect-src")).toEqual(["'self'", "wss://edge.test"]);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("names BASE_URL's socket origin when the page is served on another origin", async () => {
    const app = (await import("../../src/index")).default;
    const response = await app.fetch(new Request(`${ORIGIN}/chat`), {
      ...env,
      BASE_URL: "https://launch.example.com",
    });
    await response.text();
    expect(policy(response).get("connect-src")).toEqual(["'self'", "wss://launch.example.com"]);
    // The session answer's socket goes there, so the policy covers it.
    const ws = await seedWorkspace();
    const link = await createLaunch(ws);
    const opened = await app.fetch(
      new Request(`${ORIGIN}/v1/chat/sessions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token: link.token }),
      }),
      { ...env, BASE_URL: "https://launch.example.com" },
    );
    const session = (await opened.json()) as { socketUrl: string };
    expect(new URL(session.socketUrl).origin).toBe("wss://launch.example.com");
  });

  it("the embedded chat names its channel in the document, however its address is spelt", async () => {
    const ws = await seedWorkspace();
    const meta = `<meta name="agent-edge-channel" content="${ws.channelId}">`;
    for (const path of [`/chat/embed/${ws.channelId}`, `/chat/embed/%63${ws.channelId.slice(1)}`]) {
      const response = await call("GET", path);
      expect(response.status, path).toBe(200);
      expect(await response.text(), path).toContain(meta);
    }
    expect(await (await call("GET", "/chat")).text()).not.toContain("agent-edge-channel");
  });

  it("the embedded chat of a channel that allows any site may be framed anywhere", async () => {
    const ws = await seedWorkspace();
    const response = await call("GET", `/chat/embed/${ws.channelId}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('id="message-list"');
    const csp = policy(response);
    expect(csp.has("frame-ancestors")).toBe(false);
    expect(csp.get("connect-src")).toEqual(["'self'", "wss://edge.test"]);
    expect(csp.get("default-src")).toEqual(["'none'"]);
  });

  it("the embedded chat of a restricted channel may be framed by its sites and the dashboard only", async () => {
    const ws = await seedWorkspace();
    const first = await call("GET", `/chat/embed/${ws.channelId}`);
    await first.text();
    await allowOnly(ws, ["https://shop.example.com", "https://*.example.org"]);
    const response = await call("GET", `/chat/embed/${ws.channelId}`);
    await response.text();
    expect(policy(response).get("frame-ancestors")).toEqual([
      "https://edge.test",
      "https://shop.example.com",
      "https://*.example.org",
    ]);
    // A browser holding the page from before the change gets the new policy, not a 304.
    const etag = first.headers.get("etag") as string;
    const again = await call("GET", `/chat/embed/${ws.channelId}`, {
      headers: { "if-none-match": etag },
    });
    expect(again.status).toBe(200);
    await again.text();
    const same = await call("GET", `/chat/embed/${ws.channelId}`, {
      headers: { "if-none-match": response.headers.get("etag") as string },
    });
    expect(same.status).toBe(304);
  });

  it("has no embedded chat for a channel that does not exist", async () => {
    for (const id of ["ch_0000000000000000000000", "nope", "ch_x"]) {
      const response = await call("GET", `/chat/embed/${id}`);
      expect(response.status, id).toBe(404);
      await response.text();
    }
  });

  it("serves /widget.js and the hashed bundles with nosniff", async () => {
    const assets = env.ASSETS as Fetcher;
    const loader = await assets.fetch(new URL("/widget.js", ORIGIN));
    const bundle = /\/assets\/widget-[A-Z0-9]+\.js/.exec(await loader.text())?.[0];
    expect(bundle).toBeDefined();
    const html = await (await call("GET", "/chat")).text();
    const chat = html.match(/\/assets\/chat-[A-Z0-9]+\.(js|css)/g) ?? [];
    expect(chat).toHaveLength(2);
    expect(loader.headers.get("x-content-type-options")).toBe("nosniff");
    for (const path of [bundle as string, ...chat]) {
      const asset = await assets.fetch(new URL(path, ORIGIN));
      expect(asset.headers.get("x-content-type-options"), path).toBe("nosniff");
      await asset.arrayBuffer();
    }
  });
});

describe("the widget's question: may this page show the chat?", () => {
  it("yes for any page when the channel allows any site; cached for a minute, CORS open", async () => {
    const ws = await seedWorkspace();
    for (const origin of ["https://anyone.example", "http://localhost:3000", "null"]) {
      expect(await allowed(ws.channelId, origin), origin).toBe(true);
    }
    const response = await askEmbedding(ws.channelId, "https://anyone.example");
    expect(response.headers.get("cache-control")).toBe("public, max-age=60");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    await response.text();
  });

  it("answers as the browser reads the frame's policy", async () => {
    const ws = await seedWorkspace();
    await allowOnly(ws, [
      "https://shop.example.com",
      "https://*.example.org",
      "http://dev.test:8080",
    ]);
    const cases: [string, boolean][] = [
      ["https://shop.example.com", true],
      ["https://www.shop.example.com", false],
      ["http://shop.example.com", false],
      ["https://shop.example.com:8443", false],
      ["https://a.example.org", true],
      ["https://a.b.example.org", true],
      ["https://example.org", false],
      ["https://badexample.org", false],
      ["http://dev.test:8080", true],
      // http's sources allow the same host upgraded to https.
      ["https://dev.test:8080", true],
      ["http://dev.test", false],
      ["https://evil.example", false],
      // The dashboard (APP_URL, here the request's origin) shows any channel's preview.
      [ORIGIN, true],
      ["null", false],
      ["https://shop.example.com/path", false],
    ];
    for (const [origin, expected] of cases) {
      expect(await allowed(ws.channelId, origin), origin).toBe(expected);
    }
  });

  it("is 404 for a channel that does not exist, 400 without an origin or with a malformed id", async () => {
    await expectError(
      await askEmbedding("ch_0000000000000000000000", "https://a.example"),
      404,
      "not_found",
    );
    await expectError(
      await call("GET", "/v1/chat/channels/ch_0000000000000000000000/embedding"),
      400,
      "invalid_request",
    );
    await expectError(await askEmbedding("nope", "https://a.example"), 400, "invalid_request");
  });
});

describe("opening a link in a channel's embedded chat", () => {
  it("refuses another channel's link there, without opening it", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    await allowOnly(ws, ["https://shop.example.com"]);
    // A channel that allows any site must not frame the restricted channel's link.
    const permissive = await addChannel(ws, []);
    const link = await createLaunch(ws);
    for (const channelId of [permissive, other.channelId]) {
      await expectError(await openSession(link.token, {}, channelId), 404, "not_found");
    }
    await expectError(await openSession(link.token, {}, "ch_short"), 400, "invalid_request");
    expect((await lookUp(ws, link.id)).status, "still unopened").toBe("pending");
  });

  it("opens a link of that channel there, and any link on the hosted page", async () => {
    const ws = await seedWorkspace();
    await allowOnly(ws, ["https://shop.example.com"]);
    const link = await createLaunch(ws);
    const embedded = await openSession(link.token, {}, ws.channelId);
    expect(embedded.status, await embedded.clone().text()).toBe(200);
    await embedded.text();
    expect((await lookUp(ws, link.id)).status).toBe("active");
    const hosted = await openSession(link.token);
    expect(hosted.status).toBe(200);
    await hosted.text();
  });
});
