/**
 * Every filter of the links list reads by index, newest first, at most a page and one more row per
 * index range (docs/api/launch.md#listing-links, docs/performance.md#a-links-rows-over-its-life): SQLite's
 * own plan of each query, so a change of indexes that leaves a filter scanning the table fails.
 */
import type { D1Migration } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database } from "../../src/db/database";
import { pendingLoad } from "../../src/launch/link-rules";
import type { ListLaunchesQuery } from "../../src/launch/schemas";
import { listQuery } from "../../src/launch/search";
import { seedWorkspace } from "../helpers/api";

const db = database(env);
const NOW = Date.parse("2026-11-27T00:00:00Z");
const CURSOR = btoa(`${NOW}.lnk_abc`).replace(/=+$/, "");
const ALL_KEYS = { workspaceId: "ws_x", flowIds: null };

async function plan(
  query: Partial<ListLaunchesQuery>,
  key: { flowIds: string[] | null } = ALL_KEYS,
) {
  const built = listQuery(db, { ...ALL_KEYS, ...key }, { limit: 20, ...query }, NOW).toSQL();
  const rows = await env.DB.prepare(`EXPLAIN QUERY PLAN ${built.sql}`)
    .bind(...built.params)
    .all<{ detail: string }>();
  return rows.results.map((row) => row.detail);
}

const STATUS = "links_workspace_status_created";
const FLOW = "links_workspace_flow_settled";
const PERSON = "links_workspace_external_created";

/** The indexes each range of the query reads, in order; fails on any scan of the table. */
function ranges(details: string[]): string[] {
  for (const detail of details) expect(detail).not.toMatch(/^SCAN links\b/);
  return details.flatMap((detail) => {
    const used = /^SEARCH links USING (?:COVERING )?INDEX (\w+)/.exec(detail);
    return used?.[1] ? [used[1]] : [];
  });
}

/** Sorts: none for one range (read in the index order); a merge sorts each range's page and its own. */
const sorts = (details: string[]) => details.filter((d) => d.includes("TEMP B-TREE FOR ORDER BY"));

describe("the links list's query plans", () => {
  it.each<[string, Partial<ListLaunchesQuery>, string[]]>([
    ["a person", { externalId: "cus_42" }, [PERSON]],
    [
      "a person, with every other filter",
      { externalId: "cus_42", status: "ended", flowId: "agt_a", preview: "false", cursor: CURSOR },
      [PERSON],
    ],
    ["a person's expired links", { externalId: "cus_42", status: "expired" }, [PERSON]],
    ["active links", { status: "active" }, [STATUS]],
    ["revoked links, after a cursor", { status: "revoked", cursor: CURSOR }, [STATUS]],
    ["pending links", { status: "pending" }, [STATUS]],
    ["an agent's ended links", { flowId: "agt_a", status: "ended" }, [FLOW]],
    ["an agent's pending links", { flowId: "agt_a", status: "pending" }, [STATUS]],
  ])("%s: one range, in the index's order", async (_label, query, expected) => {
    const details = await plan(query);
    expect(ranges(details)).toEqual(expected);
    expect(sorts(details)).toEqual([]);
  });

  it.each<[string, Partial<ListLaunchesQuery>, string[]]>([
    ["no filter", {}, [STATUS, STATUS, STATUS, STATUS, STATUS]],
    [
      "no filter, no previews, a time window",
      {
        preview: "false",
        createdAfter: "2026-11-01T00:00:00Z",
        createdBefore: "2026-11-26T00:00:00Z",
      },
      [STATUS, STATUS, STATUS, STATUS, STATUS],
    ],
    ["expired links (recorded, and not yet)", { status: "expired" }, [STATUS, STATUS]],
    ["an agent's links", { flowId: "agt_a" }, [STATUS, FLOW]],
    ["an agent's expired links", { flowId: "agt_a", status: "expired" }, [STATUS, FLOW]],
  ])("%s: ranges merged by rowid, each in the index's order", async (_label, query, expected) => {
    const details = await plan(query);
    expect(ranges(details)).toEqual(expected);
    expect(
      details.some((d) => /^SEARCH links USING INTEGER PRIMARY KEY \(rowid=\?\)/.test(d)),
    ).toBe(true);
    // Each range's page (at most limit + 1 index entries) for the merge, then the merged page.
    expect(sorts(details)).toHaveLength(expected.length + 1);
  });

  it("a key limited to two agents: their pending links, then each agent's range", async () => {
    const details = await plan({}, { flowIds: ["agt_a", "agt_b"] });
    expect(ranges(details)).toEqual([STATUS, FLOW, FLOW]);
    expect(sorts(details)).toHaveLength(4);
  });
});

describe("the pending range answers from the index alone", () => {
  // An agent's pending links and the ledger's load of the pending links read the workspace's
  // pending range (at most the pending cap): covering, so no link's row is read for them.
  it("an agent's links: the pending range is a covering read of the status index", async () => {
    const details = await plan({ flowId: "agt_a" });
    expect(details.join("\n")).toContain(`USING COVERING INDEX ${STATUS}`);
  });

  it("the ledger's load of the pending links: a covering read of the status index", async () => {
    const built = pendingLoad(db, "ws_x", NOW).toSQL();
    const rows = await env.DB.prepare(`EXPLAIN QUERY PLAN ${built.sql}`)
      .bind(...built.params)
      .all<{ detail: string }>();
    expect(rows.results.map((row) => row.detail).join("\n")).toContain(
      `USING COVERING INDEX ${STATUS}`,
    );
  });
});

describe("migration 0016", () => {
  it("stores expired on links that expired unopened more than a day before it ran", async () => {
    const migrations = (env as unknown as { TEST_MIGRATIONS: D1Migration[] }).TEST_MIGRATIONS;
    const migration = migrations.find((m) => m.name.startsWith("0016_"));
    const update = migration?.queries.find((query) => query.includes("SET `status` = 'expired'"));
    if (!update) throw new Error("no update in migration 0016");
    const ws = await seedWorkspace();
    const now = Date.now();
    const day = 86_400_000;
    const expiries = { old: now - 2 * day, recent: now - 3_600_000, open: now + day };
    for (const [name, expiresAt] of Object.entries(expiries))
      await env.DB.prepare(
        `INSERT INTO links (id, workspace_id, flow_id, channel_id, token_hash, status, parameters,
           metadata, expires_at, created_at, created_by_key)
         VALUES (?1, ?2, ?3, ?4, ?1, 'pending', '{}', '{}', ?5, ?6, 'wk_x')`,
      )
        .bind(
          `lnk_mig${name}${now}`,
          ws.workspaceId,
          ws.agentId,
          ws.channelId,
          expiresAt,
          now - 3 * day,
        )
        .run();
    await env.DB.prepare(update).run();
    const rows = await env.DB.prepare(
      "SELECT id, status FROM links WHERE workspace_id = ? ORDER BY expires_at",
    )
      .bind(ws.workspaceId)
      .all<{ status: string }>();
    // The recent one waits for the ledger's alarm, which records its link.expired.
    expect(rows.results.map((row) => row.status)).toEqual(["expired", "pending", "pending"]);
  });
});
