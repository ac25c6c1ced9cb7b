import { defineConfig } from "drizzle-kit";

/** drizzle-kit generates flat SQL migrations that `wrangler d1 migrations apply` runs. */
export default defineConfig({
  dialect: "sqlite",
  schema: [
    "./src/db/schema.ts",
    "./src/db/event-tables.ts",
    "./src/db/session-tables.ts",
    "./src/db/audit-tables.ts",
  ],
  out: "./migrations",
});
