/** Opaque page cursors, `base64url("<time ms>.<id>")` (docs/api/launch.md#listing-links). */
import { invalidRequest } from "./errors";

/** The cursor after the item created at `createdAt` (epoch ms) with `id`. */
export function encodeCursor(createdAt: number, id: string): string {
  return btoa(`${createdAt}.${id}`).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/**
 * The position a cursor names.
 * @param idPattern the ids this list holds, so a cursor of another list is refused
 * @throws ApiError 400 invalid_request (field `query.cursor`) for a cursor not given out
 */
export function decodeCursor(cursor: string, idPattern: RegExp): { createdAt: number; id: string } {
  try {
    const text = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
    const dot = text.indexOf(".");
    const createdAt = Number(text.slice(0, dot));
    const id = text.slice(dot + 1);
    if (dot > 0 && Number.isSafeInteger(createdAt) && idPattern.test(id)) return { createdAt, id };
  } catch {
    // not base64: refused below
  }
  throw invalidRequest("The cursor is not one this API gave out.", [
    { field: "query.cursor", code: "invalid_type", message: "Use `nextCursor` of a page." },
  ]);
}

/** The cursor after the item with key `key`, for lists ordered by a key alone (an execution id). */
export function encodeKeyCursor(key: string): string {
  return encodeCursor(0, key);
}

/**
 * The key a cursor of {@link encodeKeyCursor} names.
 * @throws ApiError 400 invalid_request (field `query.cursor`) for a cursor not given out
 */
export function decodeKeyCursor(cursor: string, keyPattern: RegExp): string {
  return decodeCursor(cursor, keyPattern).id;
}
