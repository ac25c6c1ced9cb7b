/** Management and operator API schemas (docs/api/manage.md). */
import { z } from "@hono/zod-openapi";
import { MessageSchema } from "../conversations/schemas";
import { LaunchSchema } from "../launch/schemas";
import { PROTOTYPE_KEYS } from "../platform/json";
import { once } from "../platform/once";

/**
 * The management and operator API's schemas, built on first use: in the Worker only the management
 * API needs them, and it is built on its first request (src/routes.ts).
 */
export const manageSchemas = once(() => {
  const Slug = z
    .string()
    .regex(
      /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/,
      "Lower-case letters, digits and inner hyphens, up to 63.",
    );
  const Email = z.email().max(254);
  const PersonName = z.string().trim().min(1).max(200);

  const CreateWorkspaceSchema = z
    .strictObject({
      name: z.string().trim().min(1).max(200),
      slug: Slug.optional(),
      owner: z.strictObject({ email: Email, name: PersonName }),
    })
    .openapi("CreateWorkspace");

  const WorkspaceSchema = z
    .object({ id: z.string(), slug: z.string(), name: z.string(), createdAt: z.string() })
    .openapi("Workspace");

  const RoleSchema = z.enum(["owner", "admin", "member"]);

  const MemberSchema = z
    .object({
      id: z.string(),
      email: z.string(),
      name: z.string(),
      role: RoleSchema,
      createdAt: z.string(),
    })
    .openapi("Member");

  const CreatedWorkspaceSchema = z
    .object({
      workspace: WorkspaceSchema,
      member: MemberSchema,
      memberToken: z.string().openapi({ description: "Shown once" }),
      signInUrl: z.string().openapi({
        description:
          "A one-time link signing the member in to the dashboard (15 minutes; docs/dashboard.md#sign-in)",
      }),
    })
    .openapi("CreatedWorkspace");

  const CreateMemberSchema = z
    .strictObject({ email: Email, name: PersonName, role: z.enum(["admin", "member"]) })
    .openapi("CreateMember");

  /**
   * Body of `PATCH /v1/manage/members/{id}` (docs/api/manage.md#members): the new role. Ownership is
   * neither given nor taken here, so `owner` is not a choice.
   */
  const ChangeMemberRoleSchema = z
    .strictObject({ role: z.enum(["admin", "member"]) })
    .openapi("ChangeMemberRole");

  const CreatedMemberSchema = z
    .object({
      member: MemberSchema,
      memberToken: z.string().openapi({ description: "Shown once" }),
      signInUrl: z.string().openapi({
        description:
          "A one-time link signing the member in to the dashboard (15 minutes; docs/dashboard.md#sign-in)",
      }),
    })
    .openapi("CreatedMember");

  const CreateWidgetKeySchema = z
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

  const WidgetKeySchema = z
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

  const CreatedWidgetKeySchema = WidgetKeySchema.extend({
    key: z.string().openapi({ description: "The secret; shown only in this response" }),
  }).openapi("CreatedWidgetKey");

  const ParameterValue = z.union([z.string(), z.number(), z.boolean()]);

  const ParameterDefinitionSchema = z
    .strictObject({
      name: z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, "A letter or _, then letters, digits or _.")
        // These would name an object's prototype wherever parameters become an object.
        .refine((name) => !PROTOTYPE_KEYS.has(name), "This name is reserved."),
      type: z.enum(["string", "number", "integer", "boolean"]),
      required: z.boolean().default(false),
      options: z.array(ParameterValue).min(1).max(100).optional(),
      description: z.string().max(500).optional(),
    })
    .superRefine((definition, ctx) => {
      for (const [index, option] of (definition.options ?? []).entries()) {
        const fits =
          definition.type === "integer"
            ? Number.isSafeInteger(option)
            : definition.type === "number"
              ? typeof option === "number"
              : typeof option === definition.type;
        if (!fits) {
          ctx.addIssue({
            code: "custom",
            path: ["options", index],
            message: `Options of a ${definition.type} parameter must be ${definition.type}s.`,
          });
        }
      }
    })
    .openapi("ParameterDefinition");

  const Parameters = z
    .array(ParameterDefinitionSchema)
    .max(100)
    .superRefine(
      (list, ctx) => {
        const seen = new Set<unknown>();
        for (const [index, definition] of list.entries()) {
          const name = (definition as { name?: unknown } | null)?.name;
          if (typeof name === "string" && seen.has(name)) {
            ctx.addIssue({
              code: "custom",
              path: [index, "name"],
              message: "Duplicate parameter name.",
            });
          }
          seen.add(name);
        }
      },
      // Run even when single definitions have problems, so every problem is listed at once.
      { when: (payload) => Array.isArray(payload.value) },
    );

  const AgentFields = {
    name: z.string().trim().min(1).max(200),
    mode: z.enum(["initiator", "responder"]),
    greeting: z.string().max(4000).nullable().optional().openapi({
      description:
        "First message of an initiator agent; template over {{participant.name}}, {{parameters.<name>}}, {{globalTask}}",
    }),
    instructions: z.string().max(20_000).nullable().optional(),
    model: z.string().trim().min(1).max(200).nullable().optional().openapi({
      description:
        "Workers AI model of the agent's brain when the AI binding is configured (default @cf/meta/llama-3.1-8b-instruct)",
    }),
    parameters: Parameters,
  };

  const CreateAgentSchema = z
    .strictObject({ ...AgentFields, parameters: Parameters.default([]) })
    .openapi("CreateAgent");

  const UpdateAgentSchema = z.strictObject(AgentFields).partial().openapi("UpdateAgent");

  const AgentSchema = z
    .object({
      id: z.string(),
      name: z.string(),
      mode: z.enum(["initiator", "responder"]),
      greeting: z.string().nullable(),
      instructions: z.string().nullable(),
      model: z.string().nullable(),
      parameters: z.array(
        z.object({
          name: z.string(),
          type: z.enum(["string", "number", "integer", "boolean"]),
          required: z.boolean(),
          options: z.array(ParameterValue).optional(),
          description: z.string().optional(),
        }),
      ),
      createdAt: z.string(),
      updatedAt: z.string(),
    })
    .openapi("Agent");

  /**
   * A link as members see it (docs/api/manage.md#links): the launch look-up's fields (never the
   * token, never the parameters), and the conversation's messages once it started.
   */
  const LinkDetailSchema = z
    .object({
      ...LaunchSchema.shape,
      conversation: z
        .object({
          ...LaunchSchema.shape.conversation.unwrap().shape,
          messages: z.array(MessageSchema).openapi({ description: "Every message, oldest first" }),
        })
        .nullable()
        .openapi({ description: "null until the link is first opened" }),
    })
    .openapi("LinkDetail");

  return {
    CreateWorkspaceSchema,
    WorkspaceSchema,
    RoleSchema,
    MemberSchema,
    CreatedWorkspaceSchema,
    CreateMemberSchema,
    ChangeMemberRoleSchema,
    CreatedMemberSchema,
    CreateWidgetKeySchema,
    WidgetKeySchema,
    CreatedWidgetKeySchema,
    ParameterDefinitionSchema,
    CreateAgentSchema,
    UpdateAgentSchema,
    AgentSchema,
    LinkDetailSchema,
  };
});

/** The types of the schemas `manageSchemas` builds, by name. */
export type ManageSchemas = ReturnType<typeof manageSchemas>;

export type CreateAgent = z.infer<ManageSchemas["CreateAgentSchema"]>;

export type UpdateAgent = z.infer<ManageSchemas["UpdateAgentSchema"]>;

export type LinkDetail = z.infer<ManageSchemas["LinkDetailSchema"]>;
