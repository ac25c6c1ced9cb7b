/**
 * Asana's hook secrets (docs/webhooks.md#handshakes): the X-Hook-Secret of a node's handshake,
 * kept in shard 0's SQLite sealed under `SECRETS_KEY` (docs/security.md#secrets-at-rest), bound to
 * its workflow and node; other shards ask shard 0 in one call. Nothing is cached in memory: every
 * delivery opens the stored one, so a reset or a restart is seen at once.
 */
import { constantTimeEqual } from "../../platform/crypto";
import { type KeyConfig, KeyedBox } from "../../platform/secret-box";
import type { WorkflowRunnerContract } from "./contract";

/** The additional authenticated data of a kept hook secret. */
const hookSecretAad = (workflowId: string, nodeKey: string) =>
  `hook-secret/${workflowId}/${nodeKey}`;

/** A runner's table of kept hook secrets, one per webhook node (only shard 0's is used). */
export class HookSecretStore {
  private readonly box: KeyedBox;

  constructor(
    private readonly sql: SqlStorage,
    keys: KeyConfig,
  ) {
    this.box = new KeyedBox(keys);
    sql.exec(`CREATE TABLE IF NOT EXISTS hook_secrets (node TEXT PRIMARY KEY,
      workflow_id TEXT NOT NULL, sealed TEXT NOT NULL, kept_at INTEGER NOT NULL)`);
  }

  /**
   * Keeps `secret` for the node unless another one is kept (docs/webhooks.md#handshakes).
   * @returns true once it is the kept one (kept now, or already); false while another is kept
   * @throws Error when SECRETS_KEY is unusable, or the kept one no longer opens
   */
  async keep(workflowId: string, nodeKey: string, secret: string): Promise<boolean> {
    const aad = hookSecretAad(workflowId, nodeKey);
    const sealed = await this.box.seal(secret, aad);
    // From here to the insert nothing is awaited: two handshakes cannot both find none kept.
    const kept = this.sealedOf(nodeKey);
    if (kept === null) {
      this.sql.exec(
        "INSERT INTO hook_secrets (node, workflow_id, sealed, kept_at) VALUES (?, ?, ?, ?)",
        nodeKey,
        workflowId,
        sealed,
        Date.now(),
      );
      return true;
    }
    // The sender repeating its handshake with the same secret is answered again.
    return constantTimeEqual(await this.open(workflowId, nodeKey, kept), secret);
  }

  /** The node's kept secret, or null. @throws Error when it does not open with the configured keys */
  async get(workflowId: string, nodeKey: string): Promise<string | null> {
    const kept = this.sealedOf(nodeKey);
    return kept === null ? null : await this.open(workflowId, nodeKey, kept);
  }

  /** Forgets the secrets of every node but `nodes` (those whose preset is still asana). */
  keepOnly(nodes: readonly string[]): void {
    for (const { node } of this.sql
      .exec<{ node: string }>("SELECT node FROM hook_secrets")
      .toArray()) {
      if (!nodes.includes(node)) this.sql.exec("DELETE FROM hook_secrets WHERE node = ?", node);
    }
  }

  /** Seals each kept secret again under the current key (docs/security.md#rotating-keys); how many. */
  async reseal(): Promise<number> {
    await this.box.ring();
    let resealed = 0;
    const rows = this.sql
      .exec<{ node: string; workflow_id: string; sealed: string }>(
        "SELECT node, workflow_id, sealed FROM hook_secrets",
      )
      .toArray();
    for (const { node, workflow_id, sealed } of rows) {
      const again = await this.box.reseal(sealed, hookSecretAad(workflow_id, node));
      if (again === null) continue;
      this.sql.exec("UPDATE hook_secrets SET sealed = ? WHERE node = ?", again, node);
      resealed += 1;
    }
    return resealed;
  }

  private sealedOf(nodeKey: string): string | null {
    const [row] = this.sql
      .exec<{ sealed: string }>("SELECT sealed FROM hook_secrets WHERE node = ?", nodeKey)
      .toArray();
    return row?.sealed ?? null;
  }

  private async open(workflowId: string, nodeKey: string, sealed: string): Promise<string> {
    return this.box.open(sealed, hookSecretAad(workflowId, nodeKey));
  }
}

/** A shard of a workflow's runners (shard 0 is asked). */
type Shard = (workflowId: string, shard: number) => DurableObjectStub<WorkflowRunnerContract>;

/** A runner's side of the kept hook secrets: its own (shard 0), or shard 0's through one call. */
export class HookSecrets {
  constructor(
    readonly local: HookSecretStore,
    private readonly shard: Shard,
  ) {}

  /** As HookSecretStore.keep, on shard 0. */
  async keep(workflowId: string, nodeKey: string, secret: string, here: number): Promise<boolean> {
    if (here === 0) return await this.local.keep(workflowId, nodeKey, secret);
    return await this.shard(workflowId, 0).keepHookSecret(workflowId, nodeKey, secret);
  }

  /** As HookSecretStore.get, on shard 0. */
  async get(workflowId: string, nodeKey: string, here: number): Promise<string | null> {
    if (here === 0) return await this.local.get(workflowId, nodeKey);
    return await this.shard(workflowId, 0).hookSecret(workflowId, nodeKey);
  }
}

/** The keys of a definition's webhook nodes with the asana preset: those whose secret is kept. */
export function asanaNodes(
  nodes: readonly { key: string; type: string; verify?: { preset: string } }[],
): string[] {
  return nodes
    .filter((node) => node.type === "webhook" && node.verify?.preset === "asana")
    .map((node) => node.key);
}
