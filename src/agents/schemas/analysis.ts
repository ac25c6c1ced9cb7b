/** The agent setting `analysis` (docs/api/manage.md#analysis): what to learn from each ended conversation. */
import { z } from "@hono/zod-openapi";
import { IdentifierNameSchema, uniquelyNamed, ValueTypeSchema } from "./names";

/** Fields one analysis may ask for (docs/limits.md#analysis). */
export const MAX_ANALYSIS_FIELDS = 20;
/** Options one string field may list. */
export const MAX_FIELD_OPTIONS = 50;

const FieldSchema = z
  .strictObject({
    name: IdentifierNameSchema,
    type: ValueTypeSchema,
    description: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .openapi({ description: "What the field holds: the brain reads it to fill the field" }),
    options: z
      .array(z.string().min(1).max(200))
      .min(1)
      .max(MAX_FIELD_OPTIONS)
      .optional()
      .openapi({ description: "string fields only: the value must be one of these" }),
  })
  .superRefine((field, ctx) => {
    if (field.options && field.type !== "string") {
      ctx.addIssue({
        code: "custom",
        path: ["options"],
        message: "Only string fields have options.",
      });
    }
    if (field.options && new Set(field.options).size !== field.options.length) {
      ctx.addIssue({ code: "custom", path: ["options"], message: "Each option once." });
    }
  })
  .openapi("AnalysisField");

const Fields = uniquelyNamed(FieldSchema, MAX_ANALYSIS_FIELDS, "Duplicate field name.");

/** The setting as sent and shown; null turns analysis off. */
export const AnalysisSettingsSchema = z
  .strictObject({
    summary: z.boolean().openapi({ description: "Write a short summary of the conversation" }),
    fields: Fields.openapi({
      description: `Data to extract, at most ${MAX_ANALYSIS_FIELDS} fields with unique names`,
    }),
  })
  .refine((settings) => settings.summary || settings.fields.length > 0, {
    message: "Ask for a summary or at least one field; null turns analysis off.",
    path: ["fields"],
  })
  .openapi("AnalysisSettings", {
    description:
      "What the brain learns from each ended conversation of the agent, delivered as conversation.analyzed (docs/api/manage.md#analysis)",
  });
