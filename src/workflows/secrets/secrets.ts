/**
 * Workspace secrets (`{{secrets.NAME}}`, docs/security.md, docs/api/manage.md): stored only as AES-GCM ciphertext bound to
 * workspace and name; the management API sees names and times, the workflow runner the values.
 */
import { and, eq, gt, or } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { secrets } from "../../db/schema";
import { decodeKeyCursor, encodeKeyCursor } from "../../platform/cursor";
import { notFound } from "../../platform/errors";
import { isoTime } from "../../platform/ids";
import type { Page, PageQuery } from "../../platform/paging";
import {
  type Keyring,
  openSecret,
  resealSecret,
  sealSecret,
  secretAad,
} from "../../platform/secret-box";

/** What the management API shows of a secret: never its value. Times are ISO 8601 UTC. */
export type SecretSummary = { name: string; createdAt: string; updatedAt: string };

/**
 * Creates or replaces a secret (`now` in epoch ms). Replacing keeps `createdAt` and sets `updatedAt`.
 * Returns whether the name was new.
 */
export async function putSecret(
  db: DrizzleD1Database,
  key: Keyring,
  workspaceId: string,
  name: string,
  value: string,
  now = Date.now(),
): Promise<{ created: boolean }> {
  const ciphertext = await sealSecret(key, value, secretAad(workspaceId, name));
  // Insert-or-nothing first, because an upsert's RETURNING cannot tell an insert from an update.
  const inserted = await db
    .insert(secrets)
    .values({ workspaceId, name, ciphertext, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning({ name: secrets.name });
  if (inserted.length > 0) return { created: true };
  // An upsert rather than an update, so a delete racing in between cannot lose the new value.
  await db
    .insert(secrets)
    .values({ workspaceId, name, ciphertext, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [secrets.workspaceId, secrets.name],
      set: { ciphertext, updatedAt: now },
    });
  return { created: false };
}

/** A secret's name, as a cursor names it. */
const SECRET_NAME = /^[A-Z][A-Z0-9_]{0,63}$/;

/**
 * A page of the workspace's secret names with their times, sorted by name (unique in a
 * workspace), docs/api/README.md#lists-and-paging.
 * @throws ApiError 400 invalid_request for a cursor not given out
 */
export async function listSecretNames(
  db: DrizzleD1Database,
  workspaceId: string,
  query: PageQuery,
): Promise<Page<SecretSummary>> {
  const after = query.cursor === undefined ? undefined : decodeKeyCursor(query.cursor, SECRET_NAME);
  const rows = await db
    .select({ name: secrets.name, createdAt: secrets.createdAt, updatedAt: secrets.updatedAt })
    .from(secrets)
    .where(
      and(
        eq(secrets.workspaceId, workspaceId),
        after === undefined ? undefined : gt(secrets.name, after),
      ),
    )
    .orderBy(secrets.name)
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const hasMore = rows.length > query.limit;
  const last = page.at(-1);
  return {
    data: page.map((row) => ({
      name: row.name,
      createdAt: isoTime(row.createdAt),
      updatedAt: isoTime(row.updatedAt),
    })),
    hasMore,
    nextCursor: hasMore && last ? encodeKeyCursor(last.name) : null,
  };
}

/** Deletes a secret. @throws 404 not_found when the workspace has no secret of that name. */
export async function deleteSecret(
  db: DrizzleD1Database,
  workspaceId: string,
  name: string,
): Promise<void> {
  const deleted = await db
    .delete(secrets)
    .where(and(eq(secrets.workspaceId, workspaceId), eq(secrets.name, name)))
    .returning({ name: secrets.name });
  if (deleted.length === 0) throw notFound("No such secret in this workspace.");
}

/**
 * Every secret of the workspace decrypted, as `{NAME: value}`, for the workflow runner's templates.
 * @throws Error when one does not decrypt (another SECRETS_KEY, or a row tampered with or moved).
 */
export async function loadSecretValues(
  db: DrizzleD1Database,
  key: Keyring,
  workspaceId: string,
): Promise<Record<string, string>> {
  const rows = await db
    .select({ name: secrets.name, ciphertext: secrets.ciphertext })
    .from(secrets)
    .where(eq(secrets.workspaceId, workspaceId));
  const entries = await Promise.all(
    rows.map(
      async (row) =>
        [
          row.name,
          await openSecret(key, row.ciphertext, secretAad(workspaceId, row.name)),
        ] as const,
    ),
  );
  // Names match ^[A-Z]…, so fromEntries cannot meet `__proto__`; it makes own properties anyway.
  return Object.fromEntries(entries);
}

/**
 * Seals the next page of workspace secrets again under the current key, each only if it is not
 * yet and has not changed meanwhile (docs/security.md#rotating-keys).
 * @param after the last secret of the previous page (null: from the first)
 * @returns where to go on (null once done) and how many were resealed
 */
export async function resealSecrets(
  db: DrizzleD1Database,
  ring: Keyring,
  after: { workspaceId: string; name: string } | null,
  limit: number,
): Promise<{ next: { workspaceId: string; name: string } | null; resealed: number }> {
  const rows = await db
    .select()
    .from(secrets)
    .where(
      after
        ? or(
            gt(secrets.workspaceId, after.workspaceId),
            and(eq(secrets.workspaceId, after.workspaceId), gt(secrets.name, after.name)),
          )
        : undefined,
    )
    .orderBy(secrets.workspaceId, secrets.name)
    .limit(limit);
  let resealed = 0;
  for (const row of rows) {
    const aad = secretAad(row.workspaceId, row.name);
    const ciphertext = await resealSecret(ring, row.ciphertext, aad);
    if (ciphertext === null) continue;
    const changed = await db
      .update(secrets)
      .set({ ciphertext })
      .where(
        and(
          eq(secrets.workspaceId, row.workspaceId),
          eq(secrets.name, row.name),
          eq(secrets.ciphertext, row.ciphertext),
        ),
      )
      .returning({ name: secrets.name });
    resealed += changed.length;
  }
  const last = rows.at(-1);
  return {
    next: rows.length < limit || !last ? null : { workspaceId: last.workspaceId, name: last.name },
    resealed,
  };
}
