import { env } from "cloudflare:workers";
import { and, eq, ne, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { compiledRead, compiledWrite } from "../../src/db/compiled";
import { database } from "../../src/db/database";
import { type Link, links, workspaces } from "../../src/db/schema";
import { createStatements, revokeStatements } from "../../src/launch/ledger/lifecycle-events";
import { toRow } from "../../src/launch/ledger/link-cache";
import { findLinkRow } from "../../src/launch/link-rules";
import { seedWorkspace } from "../helpers/api";

/** What a D1 statement carries (workerd's D1PreparedStatement keeps both as fields). */
const sent = (statement: unknown) => {
  const { statement: text, params } = statement as { statement: string; params: unknown[] };
  return { sql: text, params };
};

const link = (): Link =>
  toRow({
    id: `lnk_compiled_${crypto.randomUUID().slice(0, 8)}`,
    workspaceId: "ws_compiled",
    flowId: "agt_compiled",
    channelId: "chn_compiled",
    tokenHash: crypto.randomUUID(),
    status: "pending",
    parameters: { plan: "pro", seats: 3, nested: { on: true } },
    participantName: "Ada",
    metadata: { source: "test" },
    expiresAt: Date.now() + 60_000,
    createdAt: Date.now(),
    createdByKey: "wk_compiled",
  });

describe("queries built once (docs/performance.md)", () => {
  it("a link's insert sends what drizzle's builder sends, JSON columns encoded", () => {
    const row = link();
    const [insert] = createStatements(env.DB, row);
    // `analysis` is left out (SQL NULL until the conversation is analysed; lifecycle-events.ts).
    const { analysis: _, ...inserted } = row;
    expect(sent(insert)).toEqual(database(env).insert(links).values(inserted).toSQL());
    expect(sent(insert).params).toContain(JSON.stringify(row.parameters));
  });

  it("a revocation's update sends what drizzle's builder sends", () => {
    const revoked: Link = {
      ...link(),
      status: "revoked",
      revokedAt: 1_700_000_000_000,
      endedAt: null,
    };
    const [update] = revokeStatements(env.DB, revoked, false);
    const expected = database(env)
      .update(links)
      .set({ status: "revoked", revokedAt: revoked.revokedAt, endedAt: revoked.endedAt })
      .where(
        and(
          eq(links.id, revoked.id),
          eq(links.workspaceId, revoked.workspaceId),
          ne(links.status, "revoked"),
        ),
      )
      .returning({ sessionId: links.sessionId })
      .toSQL();
    expect(sent(update)).toEqual(expected);
  });

  it("builds a write's SQL once, whatever the values", async () => {
    let builds = 0;
    const insert = compiledWrite<{ id: string; slug: string; name: string; createdAt: number }>(
      (db) => {
        builds++;
        return db.insert(workspaces).values({
          id: sql.placeholder("id"),
          slug: sql.placeholder("slug"),
          name: sql.placeholder("name"),
          createdAt: sql.placeholder("createdAt"),
        });
      },
    );
    const slugs = [1, 2, 3].map((n) => `compiled-${n}-${crypto.randomUUID().slice(0, 8)}`);
    for (const slug of slugs) {
      await insert(env.DB, { id: `ws_${slug}`, slug, name: slug, createdAt: 1 }).run();
    }
    expect(builds).toBe(1);
    const db = database(env);
    for (const slug of slugs) {
      expect(await db.select().from(workspaces).where(eq(workspaces.slug, slug)).get()).toEqual({
        id: `ws_${slug}`,
        slug,
        name: slug,
        createdAt: 1,
        retention: null,
      });
    }
  });

  it("prepares a read once per database, and reads rows as the builder maps them", async () => {
    let builds = 0;
    const byId = compiledRead((db) => {
      builds++;
      return db
        .select()
        .from(links)
        .where(eq(links.id, sql.placeholder("id")))
        .prepare();
    });
    const ws = await seedWorkspace();
    const row: Link = {
      ...link(),
      workspaceId: ws.workspaceId,
      flowId: ws.agentId,
      channelId: ws.channelId,
      createdByKey: ws.widgetKeyId,
    };
    await (createStatements(env.DB, row)[0] as D1PreparedStatement).run();
    const db = database(env);
    expect(await byId(db).get({ id: row.id })).toEqual(row);
    expect(await byId(db).get({ id: "lnk_none" })).toBeUndefined();
    expect(builds).toBe(1);
    expect(await findLinkRow(db, row.workspaceId, row.id)).toEqual(row);
    expect(await findLinkRow(db, "ws_other", row.id)).toBeUndefined();
  });
});
