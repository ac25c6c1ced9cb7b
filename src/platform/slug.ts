/**
 * Slugs suggested from names (docs/api/manage.md): a workspace's when the operator gives none,
 * a workflow's in the dashboard's New workflow dialog.
 */

/**
 * "My Orders: Sync" → "my-orders-sync": lower case, runs of anything but a-z and 0-9 as one
 * hyphen, none at either end, at most `maxLength` characters. May be "" (a name of symbols only).
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
