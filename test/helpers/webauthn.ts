/**
 * A software passkey authenticator for workerd tests (docs/dashboard.md#passkeys): it answers the
 * registration options of `POST /v1/manage/passkeys/options` as a platform authenticator with user
 * verification would (attestation "none", an ES256 key), so `POST /v1/manage/passkeys` can succeed
 * without a browser, and signs the sign-in options of `POST /sign-in/passkey/options` with a
 * passkey it registered. The browser tests use Chromium's virtual authenticator instead.
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

/** A software passkey: its key pair and credential id, kept to sign in with later. */
export type SoftPasskey = { pair: CryptoKeyPair; credentialId: Uint8Array };

/** A new software passkey (ES256). */
export async function newSoftPasskey(): Promise<SoftPasskey> {
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
    "sign",
    "verify",
  ])) as CryptoKeyPair;
  return { pair, credentialId: crypto.getRandomValues(new Uint8Array(16)) };
}

const rpIdHash = async () =>
  new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(new URL(ORIGIN).hostname)),
  );

/**
 * The authenticator's answer to registration `options` (their base64url `challenge`), for the
 * relying party of the tests' origin: a `RegistrationResponseJSON`. `passkey` is the one it
 * registers (a new one unless given).
 */
export async function registrationResponse(options: { challenge: string }, passkey?: SoftPasskey) {
  const { pair, credentialId } = passkey ?? (await newSoftPasskey());
  const raw = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
  const coseKey = new Map<number, Cbor>([
    [1, 2], // kty: EC2
    [3, -7], // alg: ES256
    [-1, 1], // crv: P-256
    [-2, raw.slice(1, 33)],
    [-3, raw.slice(33, 65)],
  ]);
  const authData = new Uint8Array([
    ...(await rpIdHash()),
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

/** An ECDSA signature as WebAuthn sends it: ASN.1 DER, where WebCrypto gives r and s raw. */
function derSignature(raw: Uint8Array): Uint8Array {
  const integer = (bytes: Uint8Array) => {
    let start = 0;
    while (start < bytes.length - 1 && bytes[start] === 0) start += 1;
    const trimmed = bytes.slice(start);
    const value = (trimmed[0] as number) & 0x80 ? [0, ...trimmed] : [...trimmed];
    return [0x02, value.length, ...value];
  };
  const body = [...integer(raw.slice(0, 32)), ...integer(raw.slice(32))];
  return new Uint8Array([0x30, body.length, ...body]);
}

/**
 * The authenticator's answer to sign-in `options` (`POST /sign-in/passkey/options`) with
 * `passkey`: an `AuthenticationResponseJSON`, user present and verified.
 * @param signCount above the stored counter (0 after registration)
 */
export async function assertionResponse(
  options: { challenge: string },
  passkey: SoftPasskey,
  signCount = 1,
) {
  const authData = new Uint8Array([
    ...(await rpIdHash()),
    0x05, // user present, user verified
    (signCount >>> 24) & 255,
    (signCount >>> 16) & 255,
    (signCount >>> 8) & 255,
    signCount & 255,
  ]);
  const clientData = new TextEncoder().encode(
    JSON.stringify({
      type: "webauthn.get",
      challenge: options.challenge,
      origin: ORIGIN,
      crossOrigin: false,
    }),
  );
  const clientHash = new Uint8Array(await crypto.subtle.digest("SHA-256", clientData));
  const signed = new Uint8Array([...authData, ...clientHash]);
  const raw = new Uint8Array(
    await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, passkey.pair.privateKey, signed),
  );
  const id = bytesToBase64Url(passkey.credentialId);
  return {
    id,
    rawId: id,
    type: "public-key",
    authenticatorAttachment: "platform",
    clientExtensionResults: {},
    response: {
      clientDataJSON: bytesToBase64Url(clientData),
      authenticatorData: bytesToBase64Url(authData),
      signature: bytesToBase64Url(derSignature(raw)),
    },
  };
}
