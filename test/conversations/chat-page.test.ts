import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";

describe("GET /chat (the hosted chat page)", () => {
  it("serves the page with a strict policy: own script only, no Referer, no caching", async () => {
    const response = await call("GET", "/chat");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const html = await response.text();
    expect(html).toContain('<script src="/chat.js" defer></script>');
    expect(html).toContain('<link rel="stylesheet" href="/chat.css">');
    // The conversation is a log around a plain list, so each message stays a list item.
    expect(html).toContain(
      '<div class="messages" role="log" aria-live="polite" aria-label="Conversation"><ol id="messages" class="message-list"></ol></div>',
    );
    // The token lives in the fragment; the page never puts it in a query string or inline script.
    expect(html).not.toMatch(/<script>(?!<\/script>)/);
  });
});
