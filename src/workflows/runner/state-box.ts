/**
 * Sealing of a running execution's state at rest (docs/security.md#secrets-at-rest). The state a
 * waiting execution keeps so it can be continued holds resolved `{{secrets.NAME}}` values, so it is
 * stored encrypted with the `SECRETS_KEY` (AES-256-GCM, `platform/secret-box.ts`), bound by its
 * additional data to one workflow and execution: a sealed state copied to another row does not open.
 */
import {
  type KeyConfig,
  keyring,
  openSecret,
  resealSecret,
  sealSecret,
} from "../../platform/secret-box";

/** Marks a sealed state; `base64(iv || ciphertext || tag)` follows. */
const SEALED = "sealed:v1:";

/** The additional authenticated data of an execution's state. */
export const stateAad = (workflowId: string, executionId: string) =>
  `execution-state/${workflowId}/${executionId}`;

/** Seals and opens execution states with the `SECRETS_KEY` (AES-256-GCM). */
export class StateBox {
  /** @param keys the Worker's sealing keys (`SECRETS_KEY`, `SECRETS_KEY_PREVIOUS`) */
  constructor(private readonly keys: KeyConfig) {}

  /** The state's JSON text sealed for storage. @throws Error when SECRETS_KEY is unusable */
  async seal(json: string, aad: string): Promise<string> {
    const key = await keyring(this.keys);
    return `${SEALED}${await sealSecret(key, json, aad)}`;
  }

  /**
   * The JSON text of a stored state. States written before sealing hold plain JSON and are read
   * as they are (sealed on their next save). @throws Error when a sealed state does not open
   */
  async open(stored: string, aad: string): Promise<string> {
    if (!stored.startsWith(SEALED)) return stored;
    const key = await keyring(this.keys);
    return openSecret(key, stored.slice(SEALED.length), aad);
  }

  /**
   * The stored state sealed again under the current key (docs/security.md#rotating-keys), or null
   * when it already is. A plain one from before sealing is sealed now.
   * @throws Error when it does not open with the configured keys
   */
  async reseal(stored: string, aad: string): Promise<string | null> {
    const ring = await keyring(this.keys);
    if (!stored.startsWith(SEALED)) return this.seal(stored, aad);
    const resealed = await resealSecret(ring, stored.slice(SEALED.length), aad);
    return resealed === null ? null : `${SEALED}${resealed}`;
  }
}
