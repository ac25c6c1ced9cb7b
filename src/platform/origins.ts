/** Public origins (docs/api/launch.md#addresses), each falling back to the request's own. */
import type { AppBindings } from "./env";

/** Origin of the chat page and widget script, e.g. `https://launch.example.com`. */
export function baseUrl(env: Pick<AppBindings, "BASE_URL">, requestUrl: string): string {
  return env.BASE_URL || new URL(requestUrl).origin;
}

/** Origin of webhook URLs, e.g. `https://app.example.com`. */
export function appUrl(env: Pick<AppBindings, "APP_URL">, requestUrl: string): string {
  return env.APP_URL || new URL(requestUrl).origin;
}
