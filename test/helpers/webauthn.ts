/**
 * A software passkey authenticator for workerd tests (docs/dashboard.md#passkeys): it answers the
 * registration options of `POST /v1/manage/passkeys/options` as a platform authenticator with user
 * verification would (attestation "none", an ES256 key), so `POST /v1/manage/passkeys` can succeed
 * without a browser. The browser tests use Chromium's virtual authenticator instead.
 */
import { bytesToBase64Url } from "../../src/platform/crypto";
import { call, expectJson, ORIGIN } from "./api";

type Cbor = number | string | Uint8Array | Map<number | string, Cbor>;

function head(major: number, length: number): number[] {
  if (length < 24) return [(major << 5) | length];
  if (length < 256) return [(major << 5) | 24, length];
  return [(major << 5) | 25, length >> 8, length & 255];
}

/** The few CBOR shapes WebAuthn needs: small integers, byte and text strings, maps. */
function cbor(value: Cbor): number[] {
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") {
    const bytes = new TextEncoder().encode(value);
    return [...head(3, bytes.length), ...bytes];
  }
  if (value instanceof Uint8Array) return [...head(2, value.length), ...value];
  return [...head(5, value.size), ...[...value].flatMap(([k, v]) => [...cbor(k), ...cbor(v)])];
}

/**
 * The authenticator's answer to registration `options` (their base64url `challenge`), for the
 * relying party of the tests' origin: a `RegistrationResponseJSON`.
 */
export async function registrationResponse(options: { challenge: string }) {
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
    "sign",
    "verify",
  ])) as CryptoKeyPair;
  const raw = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
  const coseKey = new Map<number, Cbor>([
    [1, 2], // kty: EC2
    [3, -7], // alg: ES256
    [-1, 1], // crv: P-256
    [-2, raw.slice(1, 33)],
    [-3, raw.slice(33, 65)],
  ]);
  const credentialId = crypto.getRandomValues(new Uint8Array(16));
  const rpIdHash = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(new URL(ORIGIN).hostname)),
  );
  const authData = new Uint8Array([
    ...rpIdHash,
    0x45, // user present, user verified, attested credential data
    0,
    0,
    0,
    0, // sign count
    ...new Uint8Array(16), // AAGUID
    0,
    credentialId.length,
    ...credentialId,
    ...cbor(coseKey),
  ]);
  const attestation = new Map<string, Cbor>([
    ["fmt", "none"],
    ["attStmt", new Map()],
    ["authData", authData],
  ]);
  const clientData = JSON.stringify({
    type: "webauthn.create",
    challenge: options.challenge,
    origin: ORIGIN,
    crossOrigin: false,
  });
  const id = bytesToBase64Url(credentialId);
  return {
    id,
    rawId: id,
    type: "public-key",
    authenticatorAttachment: "platform",
    clientExtensionResults: {},
    response: {
      clientDataJSON: bytesToBase64Url(new TextEncoder().encode(clientData)),
      attestationObject: bytesToBase64Url(new Uint8Array(cbor(attestation))),
      transports: ["internal"],
    },
  };
}

/** A registration body for the member of `token`: fresh options, answered (`name` given). */
export async function passkeyRegistration(token: string, name = "Fuzz key") {
  const ceremony = await expectJson<{ challengeId: string; options: { challenge: string } }>(
    await call("POST", "/v1/manage/passkeys/options", { token }),
    200,
  );
  return {
    challengeId: ceremony.challengeId,
    name,
    response: await registrationResponse(ceremony.options),
  };
}

/** Registers a passkey for the member of `token`; returns its id. */
export async function registerPasskey(token: string, name?: string): Promise<string> {
  const body = await passkeyRegistration(token, name);
  return (
    await expectJson<{ id: string }>(
      await call("POST", "/v1/manage/passkeys", { token, body }),
      201,
    )
  ).id;
}
