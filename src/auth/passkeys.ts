/**
 * Passkeys (docs/dashboard.md#passkeys): a signed-in member registers a WebAuthn credential and
 * signs in with it afterwards, without a link. `@simplewebauthn/server` does the ceremonies; only
 * public keys are stored, and each challenge is used once within 5 minutes.
 */
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { and, eq, gt, isNull, lt, lte } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { isUniqueViolation } from "../db/errors";
import { members, workspaces } from "../db/schema";
import { passkeys, webauthnChallenges } from "../db/session-tables";
import { base64UrlToBytes, bytesToBase64Url } from "../platform/crypto";
import { ApiError, notFound } from "../platform/errors";
import { newId } from "../platform/ids";
import { log } from "../platform/log";
import { idsOf, type PageQuery, readPage } from "../platform/paging";
import type { MemberPrincipal } from "./credentials";
import { openSession } from "./sessions";

const CHALLENGE_TTL_MS = 5 * 60_000;

/**
 * `@simplewebauthn/server`, loaded on first use: its certificate parsing at load was about a fifth of
 * the Worker's start-up, paid by every isolate for a ceremony few requests perform
 * (docs/performance.md#start-up).
 */
const webauthn = () => import("@simplewebauthn/server");

/** The relying party: this service's origin and its host name (WebAuthn's RP ID). */
export type RelyingParty = { origin: string; id: string };

/** The relying party of an origin such as `https://edge.example.com` or `http://localhost:8787`. */
export function relyingParty(appUrl: string): RelyingParty {
  const url = new URL(appUrl);
  return { origin: url.origin, id: url.hostname };
}

const refused = () =>
  new ApiError(400, "passkey_refused", "The passkey could not be verified; try again.");

async function takeChallenge(
  db: DrizzleD1Database,
  id: string,
  purpose: "register" | "sign-in",
  memberId: string | null,
  now: number,
): Promise<string> {
  const [row] = await db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.id, id),
        eq(webauthnChallenges.purpose, purpose),
        gt(webauthnChallenges.expiresAt, now),
        memberId === null
          ? isNull(webauthnChallenges.memberId)
          : eq(webauthnChallenges.memberId, memberId),
      ),
    )
    .returning({ challenge: webauthnChallenges.challenge });
  if (!row) throw refused();
  return row.challenge;
}

async function saveChallenge(
  db: DrizzleD1Database,
  purpose: "register" | "sign-in",
  challenge: string,
  memberId: string | null,
  now: number,
): Promise<string> {
  const id = newId("wch");
  // Expired challenges go as new ones come: the table holds about five minutes of them.
  await db.batch([
    db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now)),
    db
      .insert(webauthnChallenges)
      .values({ id, memberId, purpose, challenge, expiresAt: now + CHALLENGE_TTL_MS }),
  ]);
  return id;
}

/** Options for registering a passkey of the member (their existing ones excluded). */
export async function registrationOptions(
  db: DrizzleD1Database,
  member: MemberPrincipal,
  rp: RelyingParty,
  now = Date.now(),
) {
  const row = await db
    .select({ email: members.email, name: members.name, workspace: workspaces.name })
    .from(members)
    .innerJoin(workspaces, eq(workspaces.id, members.workspaceId))
    .where(eq(members.id, member.memberId))
    .get();
  if (!row) throw notFound("No such member.");
  const existing = await db
    .select({ id: passkeys.credentialId, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.memberId, member.memberId));
  const options = await (await webauthn()).generateRegistrationOptions({
    rpName: "agent-edge",
    rpID: rp.id,
    userName: row.email,
    userDisplayName: `${row.name} (${row.workspace})`,
    userID: Uint8Array.from(new TextEncoder().encode(member.memberId)),
    attestationType: "none",
    excludeCredentials: existing,
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
  const challengeId = await saveChallenge(db, "register", options.challenge, member.memberId, now);
  return { challengeId, options };
}

/** Verifies a registration and stores the passkey. @throws 400 passkey_refused */
export async function registerPasskey(
  db: DrizzleD1Database,
  member: MemberPrincipal,
  input: { challengeId: string; response: RegistrationResponseJSON; name: string },
  rp: RelyingParty,
  now = Date.now(),
) {
  const challenge = await takeChallenge(db, input.challengeId, "register", member.memberId, now);
  const verified = await (await webauthn())
    .verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    })
    .catch((error: unknown) => {
      log("warn", "passkey_registration_refused", { error });
      throw refused();
    });
  if (!verified.verified) throw refused();
  const { credential } = verified.registrationInfo;
  const row = {
    id: newId("pk"),
    memberId: member.memberId,
    workspaceId: member.workspaceId,
    credentialId: credential.id,
    publicKey: bytesToBase64Url(credential.publicKey),
    counter: credential.counter,
    transports: credential.transports ?? [],
    name: input.name,
    createdAt: now,
  };
  try {
    await db.insert(passkeys).values(row);
  } catch (error) {
    // The authenticator gave a credential id already registered.
    if (isUniqueViolation(error)) throw refused();
    throw error;
  }
  return { id: row.id, name: row.name, createdAt: now, lastUsedAt: null };
}

/** Options for signing in with any passkey of this service (discoverable credentials). */
export async function signInOptions(db: DrizzleD1Database, rp: RelyingParty, now = Date.now()) {
  const options = await (await webauthn()).generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: "required",
  });
  const challengeId = await saveChallenge(db, "sign-in", options.challenge, null, now);
  return { challengeId, options };
}

/**
 * Verifies a passkey sign-in and opens a session for its member (not removed).
 * @returns the session (`openSession`) and the passkey's id (`pk_…`)
 * @throws 400 passkey_refused for an unknown passkey, a bad signature or a used challenge
 */
export async function signInWithPasskey(
  db: DrizzleD1Database,
  input: { challengeId: string; response: AuthenticationResponseJSON },
  rp: RelyingParty,
  now = Date.now(),
) {
  const challenge = await takeChallenge(db, input.challengeId, "sign-in", null, now);
  const key = await db
    .select({ passkey: passkeys })
    .from(passkeys)
    .innerJoin(members, eq(members.id, passkeys.memberId))
    .where(and(eq(passkeys.credentialId, input.response.id), isNull(members.removedAt)))
    .get();
  if (!key) throw refused();
  const { passkey } = key;
  const verified = await (await webauthn())
    .verifyAuthenticationResponse({
      response: input.response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: passkey.credentialId,
        publicKey: base64UrlToBytes(passkey.publicKey),
        counter: passkey.counter,
        transports: passkey.transports as never,
      },
      requireUserVerification: true,
    })
    .catch((error: unknown) => {
      log("warn", "passkey_sign_in_refused", { error });
      throw refused();
    });
  if (!verified.verified) throw refused();
  await db
    .update(passkeys)
    .set({ counter: verified.authenticationInfo.newCounter, lastUsedAt: now })
    // Two sign-ins at once must not move the counter backwards.
    .where(
      and(
        eq(passkeys.id, passkey.id),
        lte(passkeys.counter, verified.authenticationInfo.newCounter),
      ),
    );
  const session = await openSession(db, passkey.memberId, passkey.workspaceId, now);
  return { ...session, passkeyId: passkey.id };
}

/**
 * A page of the member's passkeys, oldest first, then by id (names and times only).
 * @throws ApiError 400 invalid_request for a cursor not given out
 */
export async function listPasskeys(db: DrizzleD1Database, memberId: string, query: PageQuery) {
  const list = { ids: idsOf("pk"), order: "asc" } as const;
  return readPage(db, passkeys, eq(passkeys.memberId, memberId), query, list, (row) => ({
    id: row.id,
    name: row.name,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
  }));
}

/** Deletes one of the member's passkeys. @throws 404 not_found */
export async function deletePasskey(db: DrizzleD1Database, memberId: string, id: string) {
  const [gone] = await db
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.memberId, memberId)))
    .returning({ id: passkeys.id });
  if (!gone) throw notFound("No such passkey of yours.");
}
