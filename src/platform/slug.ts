/**
 * A slug suggested from a name (docs/api/manage.md): "My Orders: Sync" → "my-orders-sync", at most
 * `maxLength` characters; may be "" (a name of symbols only).
 */
export function slugify(name: string, maxLength: number): string {
  return name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, maxLength)
    .replace(/-+$/, "");
}
