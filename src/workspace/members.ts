/**
 * Workspaces and members (docs/api/manage.md): the operator creates a workspace with its owner; owners and
 * admins add and remove members. Member tokens are stored as SHA-256 only.
 */

import type { z } from "@hono/zod-openapi";
import { and, eq, isNull, ne } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { createSignInLink, MEMBER_TOKEN_PREFIX } from "../auth";
import { isUniqueViolation } from "../db/errors";
import { type Member, members, workspaces } from "../db/schema";
import { sessions } from "../db/session-tables";
import { generateChecksummedSecret, randomBase62, sha256Hex } from "../platform/crypto";
import { ApiError, notFound } from "../platform/errors";
import { isoTime, newId } from "../platform/ids";
import { idsOf, type Page, type PageQuery, readPage } from "../platform/paging";
import { slugify } from "../platform/slug";
import type {
  CreatedMemberSchema,
  CreatedWorkspaceSchema,
  CreateMemberSchema,
  CreateWorkspaceSchema,
  MemberSchema,
  WorkspaceSchema,
} from "./schemas";

type MemberView = z.infer<typeof MemberSchema>;

/** A member as the API shows it (never the token). */
export function toMember(row: Member): MemberView {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    createdAt: isoTime(row.createdAt),
  };
}

async function newMemberRow(
  workspaceId: string,
  input: { email: string; name: string; role: Member["role"] },
  now: number,
): Promise<{ row: Member; memberToken: string }> {
  const memberToken = generateChecksummedSecret(MEMBER_TOKEN_PREFIX);
  const row: Member = {
    id: newId("mem"),
    workspaceId,
    email: input.email.toLowerCase(),
    name: input.name,
    role: input.role,
    tokenHash: await sha256Hex(memberToken),
    createdAt: now,
    removedAt: null,
  };
  return { row, memberToken };
}

const slugFrom = (name: string) => slugify(name, 48) || "workspace";

/**
 * Creates a workspace and its owner. Without `slug`, one is derived from the name (with a random
 * suffix when taken). @throws 409 slug_taken when the given slug is in use.
 */
export async function createWorkspace(
  db: DrizzleD1Database,
  input: z.infer<typeof CreateWorkspaceSchema>,
  appUrl: string,
  now = Date.now(),
): Promise<z.infer<typeof CreatedWorkspaceSchema>> {
  let slug = input.slug ?? slugFrom(input.name);
  const taken = async (candidate: string) =>
    (await db
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(eq(workspaces.slug, candidate))
      .get()) !== undefined;
  if (await taken(slug)) {
    if (input.slug) throw new ApiError(409, "slug_taken", `The slug "${slug}" is already in use.`);
    slug = `${slug}-${randomBase62(6).toLowerCase()}`;
  }
  const workspace = { id: newId("ws"), slug, name: input.name, createdAt: now };
  const { row, memberToken } = await newMemberRow(
    workspace.id,
    { ...input.owner, role: "owner" },
    now,
  );
  try {
    await db.batch([db.insert(workspaces).values(workspace), db.insert(members).values(row)]);
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new ApiError(409, "slug_taken", `The slug "${slug}" is already in use.`);
    }
    throw error;
  }
  const signIn = await createSignInLink(db, workspace.id, row.id, appUrl, now);
  return {
    workspace: { ...workspace, createdAt: isoTime(now) },
    member: toMember(row),
    memberToken,
    signInUrl: signIn.url,
  };
}

/** Adds an admin or member. @throws 409 member_exists when the email is already a member. */
export async function createMember(
  db: DrizzleD1Database,
  workspaceId: string,
  input: z.infer<typeof CreateMemberSchema>,
  appUrl: string,
  now = Date.now(),
): Promise<z.infer<typeof CreatedMemberSchema>> {
  const { row, memberToken } = await newMemberRow(workspaceId, input, now);
  try {
    await db.insert(members).values(row);
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new ApiError(
        409,
        "member_exists",
        `${row.email} is already a member of this workspace.`,
      );
    }
    throw error;
  }
  const signIn = await createSignInLink(db, workspaceId, row.id, appUrl, now);
  return { member: toMember(row), memberToken, signInUrl: signIn.url };
}

/**
 * A page of the workspace's current members, oldest first (then by id).
 * @throws ApiError 400 invalid_request for a cursor not given out
 */
export async function listMembers(
  db: DrizzleD1Database,
  workspaceId: string,
  query: PageQuery,
): Promise<Page<MemberView>> {
  const where = and(eq(members.workspaceId, workspaceId), isNull(members.removedAt));
  return readPage(db, members, where, query, { ids: idsOf("mem"), order: "asc" }, toMember);
}

/**
 * Removes a member: their token stops working at once; widget keys they created keep working
 * (docs/api/manage.md#members). Idempotent. @throws 404 not_found, 409 cannot_remove_owner.
 */
export async function removeMember(
  db: DrizzleD1Database,
  workspaceId: string,
  memberId: string,
  now = Date.now(),
): Promise<void> {
  const row = await db
    .select({ role: members.role, removedAt: members.removedAt })
    .from(members)
    .where(and(eq(members.id, memberId), eq(members.workspaceId, workspaceId)))
    .get();
  if (!row) throw notFound("No such member in this workspace.");
  if (row.role === "owner") {
    throw new ApiError(409, "cannot_remove_owner", "The workspace owner cannot be removed.");
  }
  if (row.removedAt !== null) return;
  // Their dashboard sessions end with them (docs/dashboard.md#sign-in).
  await db.batch([
    db.update(members).set({ removedAt: now }).where(eq(members.id, memberId)),
    db.delete(sessions).where(eq(sessions.memberId, memberId)),
  ]);
}

/**
 * Changes a member's role to `admin` or `member` (docs/api/manage.md#members). Owners and admins
 * may change anyone's but the owner's, their own included: an admin stepping down leaves the owner,
 * who can always undo it. The new role applies from the member's next request (tokens and
 * sessions read it each time). Giving the same role again changes nothing.
 * @returns the member as the API shows it
 * @throws 404 not_found (no current member of that id in the workspace), 409 cannot_change_owner
 */
export async function changeMemberRole(
  db: DrizzleD1Database,
  workspaceId: string,
  memberId: string,
  role: "admin" | "member",
): Promise<MemberView> {
  const current = and(
    eq(members.id, memberId),
    eq(members.workspaceId, workspaceId),
    isNull(members.removedAt),
  );
  // One conditional write, so a member cannot be changed after being removed meanwhile.
  const [updated] = await db
    .update(members)
    .set({ role })
    .where(and(current, ne(members.role, "owner")))
    .returning();
  if (updated) return toMember(updated);
  const row = await db.select({ role: members.role }).from(members).where(current).get();
  if (!row) throw notFound("No such member in this workspace.");
  throw new ApiError(409, "cannot_change_owner", "The workspace owner's role cannot be changed.");
}

/**
 * The caller and its workspace (docs/api/manage.md): what the dashboard shows in its header and
 * which controls it offers. @throws 404 not_found when the member is gone meanwhile
 */
export async function whoAmI(
  db: DrizzleD1Database,
  workspaceId: string,
  memberId: string,
): Promise<{ member: MemberView; workspace: z.infer<typeof WorkspaceSchema> }> {
  const row = await db
    .select({ member: members, workspace: workspaces })
    .from(members)
    .innerJoin(workspaces, eq(workspaces.id, members.workspaceId))
    .where(and(eq(members.id, memberId), eq(members.workspaceId, workspaceId)))
    .get();
  if (!row) throw notFound("No such member in this workspace.");
  const { workspace } = row;
  return {
    member: toMember(row.member),
    workspace: { ...workspace, createdAt: isoTime(workspace.createdAt) },
  };
}
