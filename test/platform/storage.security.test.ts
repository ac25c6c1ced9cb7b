import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/platform/crypto";
import { call, expectJson, launchBody, seedWorkspace } from "../helpers/api";

/** Every text value of every user table in D1, in one string. */
async function everythingInD1(): Promise<string> {
  const tables = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name != 'd1_migrations'",
  ).all<{ name: string }>();
  let dump = "";
  for (const { name } of tables.results) {
    const rows = await env.DB.prepare(`SELECT * FROM "${name}"`).all();
    dump += JSON.stringify(rows.results);
  }
  return dump;
}

describe("D1 holds no plaintext secret (docs/security.md)", () => {
  it("stores widget keys, member tokens and link tokens only as SHA-256", async () => {
    const ws = await seedWorkspace();
    const created = await expectJson<{ token: string }>(
      await call("POST", "/v1/widget/launches", { token: ws.widgetKey, body: launchBody(ws) }),
      201,
    );
    const dump = await everythingInD1();
    expect(dump.length).toBeGreaterThan(1000);
    for (const secret of [ws.widgetKey, ws.ownerToken, created.token]) {
      expect(dump).not.toContain(secret);
      expect(dump).not.toContain(secret.slice(-20));
      expect(dump).toContain(await sha256Hex(secret));
    }
  });
});
