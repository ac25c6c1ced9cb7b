/**
 * The dashboard's build (docs/dashboard.md): React into the Worker's static assets under
 * `/app/`, every script and stylesheet under a hashed name (served with a year's immutable cache);
 * the HTML shell is served by the Worker (`src/workspace/dashboard-routes.ts`) behind the session.
 */
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  root: fileURLToPath(new URL("../src/dashboard", import.meta.url)),
  base: "/app/",
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL("../dist/client/app", import.meta.url)),
    emptyOutDir: true,
    // No inline script anywhere: the page's CSP allows only same-origin scripts.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
});
