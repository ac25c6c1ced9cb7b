/**
 * The webhook receiver (`/webhooks/<workspace>/<workflow>/<node key>`, docs/api/webhooks.md#urls)
 * served by the Worker's entry without the app's router and middleware chain, which cost a call
 * more than our own work in the Worker (docs/performance.md#webhooks-without-the-app).
 *
 * The app does nothing more for such a request than: its request id, the settings check, the
 * route's handler and the sandbox header. A request is taken only when those are all it would meet:
 * any method but `HEAD` (Hono answers it as a bodiless `GET`), three path parts without a percent
 * sign (the router would decode them), and settings that pass their check. Anything else goes to
 * the app untouched. The answer (status, body, headers, request id) is the app's:
 * `test/workflows/webhook-direct.test.ts` compares the two for every outcome.
 */
import { errorAnswer, requestIdOf } from "../../platform/app";
import { misconfiguration } from "../../platform/config";
import type { AppBindings } from "../../platform/env";
import { SANDBOX_HEADER, webhookAnswer } from "./answer";
import { receiveWebhook } from "./receive";

/** `/webhooks/<workspace>/<workflow>/<node>`, then the query if any; parts as the router reads them. */
const HOOK_PATH = /^\/webhooks\/([^/?%]+)\/([^/?%]+)\/([^/?%]+)(?:\?|$)/;

/**
 * Serves a webhook call when it can answer as the app would (see above).
 * @returns the answer, or null when the app must serve the request
 */
export function directWebhook(request: Request, env: AppBindings): Promise<Response> | null {
  const url = request.url;
  // The path and query, as Hono's `getPath` starts reading them.
  const match = HOOK_PATH.exec(url.slice(url.indexOf("/", url.indexOf(":") + 4)));
  if (!match || request.method === "HEAD" || misconfiguration(env) !== null) return null;
  const [, workspace = "", workflow = "", node = ""] = match;
  return serve(request, env, { workspace, workflow, node, requestId: requestIdOf(request) });
}

async function serve(
  request: Request,
  env: AppBindings,
  target: { workspace: string; workflow: string; node: string; requestId: string },
): Promise<Response> {
  // In the order the app sets them: its request id, the route's, the answer's, then the sandbox.
  const requestId = { "x-request-id": target.requestId };
  let headers: Headers | undefined;
  try {
    const answer = webhookAnswer(await receiveWebhook(env, request, target), env, request.url);
    if (!("error" in answer || "reply" in answer)) {
      // The usual answer: names of our own, each once, so a plain record makes the same headers.
      const own = {
        ...requestId,
        ...answer.headers,
        "content-type": "application/json",
        [SANDBOX_HEADER.name]: SANDBOX_HEADER.value,
      };
      return new Response(JSON.stringify(answer.json), { status: answer.status, headers: own });
    }
    headers = new Headers(requestId);
    for (const name in answer.headers) headers.set(name, answer.headers[name] as string);
    if ("error" in answer) throw answer.error;
    const { status, headers: own, body } = answer.reply;
    for (const name in own) headers.set(name, own[name] as string);
    return sandboxed(body, status, headers);
  } catch (error) {
    headers ??= new Headers(requestId);
    const failed = errorAnswer(error, target.requestId, request);
    for (const name in failed.headers) headers.set(name, failed.headers[name] as string);
    headers.set("content-type", "application/json");
    return sandboxed(JSON.stringify(failed.body), failed.status, headers);
  }
}

function sandboxed(body: string | null, status: number, headers: Headers): Response {
  headers.set(SANDBOX_HEADER.name, SANDBOX_HEADER.value);
  return new Response(body, { status, headers });
}
