/**
 * Building the fetch of an `http_request` node (docs/api/webhooks.md#http-request-node): the URL must
 * resolve to http(s); header values become text; an object body is sent as JSON.
 */

import type { FetchRequest, HttpRequestNode } from "../nodes/types";
import { resolveValue, type TemplateScope, valueAsText } from "./template";

/**
 * The request of an http_request node, with its templates resolved against `scope`, or an error
 * message free of resolved (secret) values (docs/api/webhooks.md#http-request-node).
 */
export function buildRequest(node: HttpRequestNode, scope: TemplateScope): FetchRequest | string {
  const url = resolveValue(node.url, scope);
  let parsed: URL | undefined;
  try {
    parsed = typeof url === "string" ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) {
    return "The url setting did not resolve to an http(s) URL.";
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(node.headers)) {
    headers[name.toLowerCase()] = valueAsText(resolveValue(value, scope));
  }
  let body: string | null = null;
  // fetch refuses a body on GET and HEAD, so one configured there is not sent.
  if (node.body !== undefined && node.method !== "GET" && node.method !== "HEAD") {
    const resolved = resolveValue(node.body, scope);
    if (typeof resolved === "string") body = resolved;
    else {
      body = JSON.stringify(resolved);
      headers["content-type"] ??= "application/json";
    }
  }
  return {
    method: node.method,
    url: parsed.href,
    headers,
    body,
    timeoutMs: node.timeoutSeconds * 1000,
  };
}
