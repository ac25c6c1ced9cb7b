/**
 * Sticky notes on a workflow's canvas (docs/api/webhooks.md#notes): text the builders leave beside
 * the nodes, saved with the workflow and returned with it, stored apart from the definition so
 * that runs never carry them (the runner reads the `definition` column only).
 */
import { z } from "@hono/zod-openapi";
import type { ErrorDetail } from "../../platform/errors";

/** At most this many notes on one workflow. */
export const MAX_NOTES = 100;
/** At most this many characters in one note's text. */
export const MAX_NOTE_TEXT = 5_000;
/** How far from 0 a note's position and size may reach (px), as a node's position. */
const MAX_EXTENT = 1_000_000;

/**
 * The note schemas, for the workflow schemas (schemas.ts) to build once: `WorkflowNote`, the same
 * for requests and answers.
 */
export function noteSchema() {
  const Coordinate = z.number().min(-MAX_EXTENT).max(MAX_EXTENT);
  const Length = z.number().positive().max(MAX_EXTENT);
  return z
    .strictObject({
      key: z
        .string()
        .min(1)
        .max(64)
        // `*`: an empty key is out_of_range (min 1) alone, not also invalid_format.
        .regex(/^[A-Za-z0-9_-]*$/, "Letters, digits, _ and - only, up to 64.")
        .openapi({ description: "Unique among the workflow's notes", example: "note_1" }),
      text: z
        .string()
        .max(MAX_NOTE_TEXT)
        .openapi({ description: "Plain text, 0 to 5,000 characters" }),
      position: z
        .strictObject({ x: Coordinate, y: Coordinate })
        .openapi({ description: "Where the canvas draws its top left corner (px)" }),
      size: z
        .strictObject({ width: Length, height: Length })
        .optional()
        .openapi({ description: "Its size on the canvas (px); absent: the canvas's default" }),
    })
    .openapi("WorkflowNote", {
      description: "A sticky note on the canvas; runs never see it (docs/api/webhooks.md#notes)",
    });
}

/** A sticky note of the canvas: saved beside the definition, never part of it. */
export type WorkflowNote = z.output<ReturnType<typeof noteSchema>>;

/**
 * Two notes with one key, each after the first as a `notes.<i>.key` problem (the path zod gives
 * every other problem of a note) with code
 * `duplicate_key` (docs/errors.md#detail-codes); none when every key is unique.
 */
export function noteProblems(notes: readonly WorkflowNote[]): ErrorDetail[] {
  const seen = new Set<string>();
  const problems: ErrorDetail[] = [];
  for (const [index, note] of notes.entries()) {
    if (seen.has(note.key)) {
      problems.push({
        field: `notes.${index}.key`,
        code: "duplicate_key",
        message: `Another note has the key "${note.key}".`,
      });
    }
    seen.add(note.key);
  }
  return problems;
}
