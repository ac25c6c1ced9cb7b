/**
 * The Worker's environment (docs/operations.md#configuration): wrangler.toml's bindings and vars
 * (`npm run cf-typegen`), plus secrets and optional vars typed by `config.ts`'s schema.
 */
import type { Settings } from "./config";

/** The Workers AI binding as the brain uses it (a stand-in in tests). */
export type AiRunner = { run(model: string, input: unknown): Promise<unknown> };

declare global {
  namespace Cloudflare {
    interface Env extends Settings {
      /** Workers AI; when bound, agents reply through it, otherwise through the scripted brain. */
      AI?: AiRunner;
    }
  }
}

/** The Worker's environment: its bindings, vars and secrets. */
export type AppBindings = Cloudflare.Env;
