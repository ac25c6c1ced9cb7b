/** What the analysis fields and the agent parameters share (docs/api/manage.md#agents-and-channels). */
import { z } from "@hono/zod-openapi";
import { PROTOTYPE_KEYS } from "../../platform/json";

/** A field's or parameter's name: an identifier, never one that names an object's prototype. */
export const IdentifierNameSchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, "A letter or _, then letters, digits or _.")
  // These would name an object's prototype where the values become an object.
  .refine((name) => !PROTOTYPE_KEYS.has(name), "This name is reserved.");

/** The value types a field or a parameter may have. */
export const ValueTypeSchema = z.enum(["string", "number", "integer", "boolean"]);

/**
 * A list of up to `max` named items (analysis fields, agent parameters) whose names differ: a name
 * given again is an issue at `[index, "name"]` saying `duplicate`.
 */
export function uniquelyNamed<T extends z.ZodType>(item: T, max: number, duplicate: string) {
  return z
    .array(item)
    .max(max)
    .superRefine(
      (list, ctx) => {
        const seen = new Set<unknown>();
        for (const [index, entry] of list.entries()) {
          const name = (entry as { name?: unknown } | null)?.name;
          if (typeof name === "string" && seen.has(name)) {
            ctx.addIssue({ code: "custom", path: [index, "name"], message: duplicate });
          }
          seen.add(name);
        }
      },
      // Run even when single items have problems, so every problem is listed at once.
      { when: (payload) => Array.isArray(payload.value) },
    );
}
