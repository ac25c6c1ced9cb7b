/**
 * The Worker's environment (docs/operations.md#configuration): the bindings and vars wrangler.toml
 * declares, typed by `wrangler types` into worker-configuration.d.ts (`npm run cf-typegen`;
 * `npm test` fails when it is stale), and the secrets and optional vars it cannot declare, typed
 * from the schema that checks them at start (`config.ts`).
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
