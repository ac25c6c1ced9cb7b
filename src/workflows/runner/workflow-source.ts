/**
 * A runner's cached workflow and secret values (docs/architecture.md#workflow-runner); a failed
 * read is never remembered.
 */
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { type KeyConfig, keyring } from "../../platform/secret-box";
import { secretsForRedaction } from "../engine/redact";
import { loadSecretValues } from "../secrets/secrets";
import { type RunnerConfig, readRunnerConfig } from "./config";

/** Secret values by name, and the same values prepared once for `redactedJson`. */
export type Secrets = { values: Record<string, string>; redact: string[] };

/** Secrets are re-read at least this often even if no change was announced (ms). */
const SECRETS_MAX_AGE_MS = 60_000;

export class WorkflowSource {
  private config: Promise<RunnerConfig | null> | undefined;
  private configLoadedAt = 0;
  private secrets: Promise<Secrets> | undefined;
  private secretsLoadedAt = 0;

  /** @param keys the Worker's sealing keys (`SECRETS_KEY`, `SECRETS_KEY_PREVIOUS`) */
  constructor(
    private readonly db: DrizzleD1Database,
    private readonly keys: KeyConfig,
  ) {}

  /** Reads the workflow again now (after a management change); null once it was deleted. */
  reload(workflowId: string): Promise<RunnerConfig | null> {
    this.config = undefined;
    return this.workflow(workflowId);
  }

  /** The workflow's configuration, read once and then from memory. */
  workflow(workflowId: string): Promise<RunnerConfig | null> {
    if (!this.config) {
      const loading = readRunnerConfig(this.db, workflowId);
      this.config = loading;
      this.configLoadedAt = Date.now();
      loading.catch(() => {
        if (this.config === loading) this.config = undefined;
      });
    }
    return this.config;
  }

  /** The configuration, re-read if older than `maxAgeMs` (docs/scaling.md#runner-shards). */
  recheck(workflowId: string, maxAgeMs: number): Promise<RunnerConfig | null> {
    if (Date.now() - this.configLoadedAt > maxAgeMs) this.config = undefined;
    return this.workflow(workflowId);
  }

  /** Forgets the cached secrets; the next execution reads them again. */
  secretsChanged(): void {
    this.secrets = undefined;
  }

  /** The workspace's secret values, at most SECRETS_MAX_AGE_MS old. */
  secretValues(workspaceId: string): Promise<Secrets> {
    if (this.secrets && Date.now() - this.secretsLoadedAt <= SECRETS_MAX_AGE_MS) {
      return this.secrets;
    }
    this.secretsLoadedAt = Date.now();
    const loading = (async (): Promise<Secrets> => {
      const key = await keyring(this.keys);
      const values = await loadSecretValues(this.db, key, workspaceId);
      return { values, redact: secretsForRedaction(Object.values(values)) };
    })();
    this.secrets = loading;
    loading.catch(() => {
      if (this.secrets === loading) this.secrets = undefined;
    });
    return loading;
  }
}

/** No secrets (a workflow that no longer exists). */
export function emptySecrets(): Secrets {
  return { values: {}, redact: [] };
}
