import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DOCS_ASSETS_MANIFEST, type DocsAssets } from "../../src/platform/docs-page";
import { call, ORIGIN } from "../helpers/api";

/** The manifest `npm run build:client` wrote into the static assets (scripts/docs-assets.mjs). */
async function builtManifest(): Promise<DocsAssets> {
  const response = await env.ASSETS?.fetch(`${ORIGIN}${DOCS_ASSETS_MANIFEST}`);
  if (response?.status !== 200) {
    throw new Error(`${DOCS_ASSETS_MANIFEST} is not in dist/client: run \`npm run build:client\`.`);
  }
  return response.json();
}

const scriptTags = (html: string) => [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];

describe("GET /docs (the API reference, docs/README.md#api-reference)", () => {
  it("is our page: the pinned same-origin bundle, no inline script, a strict policy", async () => {
    const assets = await builtManifest();
    const response = await call("GET", "/docs");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);

    const csp = response.headers.get("content-security-policy") ?? "";
    const directives = new Map(
      csp.split(";").map((d) => {
        const [name = "", ...sources] = d.trim().split(/\s+/);
        return [name, sources.join(" ")] as const;
      }),
    );
    expect(directives.get("default-src")).toBe("'none'");
    expect(directives.get("script-src")).toBe("'self'");
    expect(directives.get("connect-src")).toBe("'self'");
    expect(directives.get("frame-ancestors")).toBe("'none'");
    expect(directives.has("font-src")).toBe(false);
    expect(csp).not.toMatch(/https?:|wss?:|\*|unsafe-eval/);
    expect(directives.get("script-src")).not.toContain("unsafe-inline");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");

    const html = await response.text();
    const scripts = scriptTags(html);
    // The bundle, pinned to the installed version, with its integrity; nothing from elsewhere.
    expect(assets.script).toBe(`/docs-assets/scalar-${assets.version}.js`);
    const external = scripts.filter(([, attributes]) => /\bsrc=/.test(attributes ?? ""));
    expect(external.map(([tag]) => tag)).toEqual([
      `<script src="${assets.script}" integrity="${assets.integrity}" defer></script>`,
    ]);
    expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    // The configuration: a JSON data block with an empty body (never executed), read by Scalar.
    const inline = scripts.filter(([, attributes]) => !/\bsrc=/.test(attributes ?? ""));
    expect(inline).toHaveLength(1);
    const [, attributes = "", body] = inline[0] ?? [];
    expect(body).toBe("");
    expect(attributes).toContain('id="api-reference"');
    expect(attributes).toContain('type="application/json"');
    expect(attributes).toContain('data-url="/openapi.json"');
    const configuration = JSON.parse(
      (/data-configuration="([^"]*)"/.exec(attributes)?.[1] ?? "").replaceAll("&quot;", '"'),
    );
    expect(configuration).toMatchObject({ withDefaultFonts: false, telemetry: false });
    expect(html).not.toMatch(/\bstyle[=>]/);
  });

  it("serves the pinned bundle from the static assets, matching its integrity", async () => {
    const assets = await builtManifest();
    const response = await env.ASSETS?.fetch(`${ORIGIN}${assets.script}`);
    expect(response?.status).toBe(200);
    expect(response?.headers.get("content-type")).toMatch(/javascript/);
    const bytes = await response?.arrayBuffer();
    const digest = await crypto.subtle.digest("SHA-384", bytes ?? new ArrayBuffer(0));
    const base64 = btoa(String.fromCharCode(...new Uint8Array(digest)));
    expect(`sha384-${base64}`).toBe(assets.integrity);
  });
});
