/**
 * Sealing a running execution's state, which holds resolved secrets (docs/security.md#secrets-at-rest),
 * bound to its workflow and execution: copied to another row, it does not open.
 */
import { type KeyConfig, KeyedBox } from "../../platform/secret-box";

/** Marks a sealed state; `base64(iv || ciphertext || tag)` follows. */
const SEALED = "sealed:v1:";

/** The additional authenticated data of an execution's state. */
export const stateAad = (workflowId: string, executionId: string) =>
  `execution-state/${workflowId}/${executionId}`;

/** Seals and opens execution states with the `SECRETS_KEY` (AES-256-GCM). */
export class StateBox {
  /** @param keys the Worker's sealing keys (`SECRETS_KEY`, `SECRETS_KEY_PREVIOUS`) */
  private readonly box: KeyedBox;

  constructor(keys: KeyConfig) {
    this.box = new KeyedBox(keys);
  }

  /** The state's JSON text sealed for storage. @throws Error when SECRETS_KEY is unusable */
  async seal(json: string, aad: string): Promise<string> {
    return `${SEALED}${await this.box.seal(json, aad)}`;
  }

  /** The JSON text of a stored state (plain JSON from before sealing as is). @throws when it does not open */
  async open(stored: string, aad: string): Promise<string> {
    if (!stored.startsWith(SEALED)) return stored;
    return this.box.open(stored.slice(SEALED.length), aad);
  }

  /**
   * The state sealed again under the current key (docs/security.md#rotating-keys), or null.
   * @throws Error when it does not open with the configured keys
   */
  async reseal(stored: string, aad: string): Promise<string | null> {
    await this.box.ring();
    if (!stored.startsWith(SEALED)) return this.seal(stored, aad);
    const resealed = await this.box.reseal(stored.slice(SEALED.length), aad);
    return resealed === null ? null : `${SEALED}${resealed}`;
  }
}
