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
