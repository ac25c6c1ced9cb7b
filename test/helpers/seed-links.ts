import { env } from "cloudflare:workers";

/**
 * Writes `count` pending links straight into D1, as if created earlier, without going through the
 * link ledger: the state a freshly started limiter must pick up from D1.
 */
export async function insertPendingLinks(
  workspaceId: string,
  flowId: string,
  channelId: string,
  count: number,
  expiresAt = Date.now() + 86_400_000,
): Promise<void> {
  const batch = crypto.randomUUID().replaceAll("-", "");
  await env.DB.prepare(
    `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?1)
     INSERT INTO links (id, workspace_id, flow_id, channel_id, token_hash, status, parameters,
                        expires_at, created_at, created_by_key)
     SELECT 'lnk_seed_' || ?2 || '_' || n, ?3, ?4, ?5, 'seed_' || ?2 || '_' || n, 'pending', '{}', ?6, ?7, 'wk_seed'
     FROM seq`,
  )
    .bind(count, batch, workspaceId, flowId, channelId, expiresAt, Date.now())
    .run();
}

/** Pending, unexpired links of the workspace as D1 holds them. */
export async function pendingInD1(workspaceId: string): Promise<number> {
  const row = await env.DB.prepare(
    "SELECT COUNT(*) AS n FROM links WHERE workspace_id = ? AND status = 'pending' AND expires_at > ?",
  )
    .bind(workspaceId, Date.now())
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** Every link of the workspace in D1, whatever its state. */
export async function linksInD1(workspaceId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM links WHERE workspace_id = ?")
    .bind(workspaceId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}
