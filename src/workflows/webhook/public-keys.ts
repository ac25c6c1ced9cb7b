/**
 * Signatures under a sender's public key (docs/webhooks.md#presets): Ed25519 (Discord, the key in
 * hex) and ECDSA P-256 with SHA-256 (SendGrid, the key as base64 DER or PEM).
 */
import { decodeBase64 } from "./macs";
import type { TableRow } from "./preset-types";

function hexToBytes(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(text)) return null;
  return Uint8Array.from(text.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
}

/** A DER ECDSA signature (SEQUENCE of two INTEGERs) as WebCrypto's r‖s, 32 bytes each. */
function derToRaw(der: Uint8Array): Uint8Array<ArrayBuffer> | null {
  if (der[0] !== 0x30 || der.byteLength < 8) return null;
  const out = new Uint8Array(64);
  let at = der[1] === 0x81 ? 3 : 2;
  for (const half of [0, 32]) {
    const length = der[at + 1] ?? 0;
    if (der[at] !== 0x02 || length === 0 || at + 2 + length > der.byteLength) return null;
    let int = der.subarray(at + 2, at + 2 + length);
    while (int.byteLength > 32 && int[0] === 0) int = int.subarray(1);
    if (int.byteLength > 32) return null;
    out.set(int, half + 32 - int.byteLength);
    at += 2 + length;
  }
  return out;
}

/** A public key in base64 DER (SPKI), a PEM block's lines and markers left out. */
const spkiBytes = (secret: string) =>
  decodeBase64(secret.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, ""));

/** Whether `signature` signs `message` under the row's public-key algorithm and `secret`. */
export async function verifiesPublicKey(
  row: TableRow,
  secret: string,
  signature: string,
  message: Uint8Array<ArrayBuffer>,
): Promise<boolean | null> {
  try {
    if (row.algorithm === "ed25519") {
      const key = hexToBytes(secret.trim());
      const sig = hexToBytes(signature);
      if (key?.byteLength !== 32) return null;
      if (sig?.byteLength !== 64) return false;
      const imported = await crypto.subtle.importKey("raw", key, { name: "Ed25519" }, false, [
        "verify",
      ]);
      return await crypto.subtle.verify({ name: "Ed25519" }, imported, sig, message);
    }
    const key = spkiBytes(secret);
    if (!key) return null;
    const imported = await crypto.subtle
      .importKey("spki", key, { name: "ECDSA", namedCurve: "P-256" }, false, ["verify"])
      .catch(() => null);
    if (!imported) return null;
    const der = decodeBase64(signature);
    const raw = der ? derToRaw(der) : null;
    if (!raw) return false;
    return await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, imported, raw, message);
  } catch {
    return false;
  }
}
