import type { FetchRequest, HttpRequestNode } from "../nodes/types";
import { resolveValue, type TemplateScope, valueAsText } from "./template";

/**
 * An http_request node's fetch, templates resolved (http(s) only, headers as text, object bodies
 * as JSON), or an error free of secrets (docs/api/webhooks.md#http-request-node).
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
