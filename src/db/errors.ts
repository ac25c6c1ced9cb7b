/**
 * True when a D1 write failed on a UNIQUE constraint. Drizzle wraps the D1 error ("Failed query…"),
 * so the whole `cause` chain is searched.
 */
export function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    if (/UNIQUE constraint failed/i.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}
