/** Agent schemas (docs/api/manage.md#agents-and-channels): what creates, changes and shows an agent. */
import { z } from "@hono/zod-openapi";
import { AnalysisSettingsSchema } from "./analysis";
import { IdentifierNameSchema, uniquelyNamed, ValueTypeSchema } from "./names";

export { AnalysisSettingsSchema, MAX_ANALYSIS_FIELDS } from "./analysis";

const ParameterValue = z.union([z.string(), z.number(), z.boolean()]);

export const ParameterDefinitionSchema = z
  .strictObject({
    name: IdentifierNameSchema,
    type: ValueTypeSchema,
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

const Parameters = uniquelyNamed(ParameterDefinitionSchema, 100, "Duplicate parameter name.");

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
  analysis: AnalysisSettingsSchema.nullable().optional(),
};

export const CreateAgentSchema = z
  .strictObject({ ...AgentFields, parameters: Parameters.default([]) })
  .openapi("CreateAgent");

export const UpdateAgentSchema = z.strictObject(AgentFields).partial().openapi("UpdateAgent");

export const AgentSchema = z
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
    analysis: AnalysisSettingsSchema.nullable().openapi({
      description: "What is learned from each ended conversation; null for nothing",
    }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Agent");

export type CreateAgent = z.infer<typeof CreateAgentSchema>;

export type UpdateAgent = z.infer<typeof UpdateAgentSchema>;
