/** Workspace administration schemas: the workspace, its members and its widget keys (docs/api/manage.md). */
import { z } from "@hono/zod-openapi";

const Slug = z
  .string()
  .regex(
    /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/,
    "Lower-case letters, digits and inner hyphens, up to 63.",
  );
const Email = z.email().max(254);
const PersonName = z.string().trim().min(1).max(200);

export const CreateWorkspaceSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    slug: Slug.optional(),
    owner: z.strictObject({ email: Email, name: PersonName }),
  })
  .openapi("CreateWorkspace");

export const WorkspaceSchema = z
  .object({ id: z.string(), slug: z.string(), name: z.string(), createdAt: z.string() })
  .openapi("Workspace");

export const RoleSchema = z.enum(["owner", "admin", "member"]);

export const MemberSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    role: RoleSchema,
    createdAt: z.string(),
  })
  .openapi("Member");

/** A new member as its creator is answered: the member, its token (shown once), a sign-in link. */
const newMember = {
  member: MemberSchema,
  memberToken: z.string().openapi({ description: "Shown once" }),
  signInUrl: z.string().openapi({
    description:
      "A one-time link signing the member in to the dashboard (15 minutes; docs/dashboard.md#sign-in)",
  }),
};

export const CreatedWorkspaceSchema = z
  .object({ workspace: WorkspaceSchema, ...newMember })
  .openapi("CreatedWorkspace");

export const CreateMemberSchema = z
  .strictObject({ email: Email, name: PersonName, role: z.enum(["admin", "member"]) })
  .openapi("CreateMember");

/**
 * Body of `PATCH /v1/manage/members/{id}` (docs/api/manage.md#members): the new role. Ownership is
 * neither given nor taken here, so `owner` is not a choice.
 */
export const ChangeMemberRoleSchema = z
  .strictObject({ role: z.enum(["admin", "member"]) })
  .openapi("ChangeMemberRole");

export const CreatedMemberSchema = z.object(newMember).openapi("CreatedMember");

export const CreateWidgetKeySchema = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    flowIds: z.array(z.string().min(1).max(64)).min(1).max(100).optional().openapi({
      description: "Agents the key is limited to; omit for every agent",
    }),
    expiresAt: z.iso
      .datetime({ offset: true })
      .optional()
      .openapi({ description: "ISO 8601; in the future" }),
  })
  .openapi("CreateWidgetKey");

export const WidgetKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    keyPrefix: z.string(),
    flowIds: z.array(z.string()).nullable(),
    expiresAt: z.string().nullable(),
    createdAt: z.string(),
    createdBy: z.string(),
    lastUsedAt: z.string().nullable().openapi({
      description: "When the key last authenticated a call, to the minute; null if never",
    }),
  })
  .openapi("WidgetKey");

export const CreatedWidgetKeySchema = WidgetKeySchema.extend({
  key: z.string().openapi({ description: "The secret; shown only in this response" }),
}).openapi("CreatedWidgetKey");
