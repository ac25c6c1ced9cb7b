/**
 * Sends an http_request node's request (docs/api/webhooks.md) under the outbound policy
 * (docs/security.md#outbound-requests); lower-case headers, a JSON body parsed, else text.
 */
import type { JsonValue } from "../../platform/json";
import {
  DestinationNotAllowed,
  MAX_REDIRECTS,
  type OutboundPolicy,
  outboundFetch,
  RedirectFailed,
} from "../../platform/outbound";
import { readLimited } from "../../platform/read-limited";
import type { FetchRequest, FetchResponse, NodeRun } from "../nodes/types";

/** Responses larger than this are cut off rather than held in the runner's memory. */
export const MAX_RESPONSE_BYTES = 1_048_576;

/**
 * Performs the request, its timeout covering up to MAX_REDIRECTS redirects.
 * @throws DestinationNotAllowed when the policy refuses the URL or a redirect's target
 * @throws Error with a message fit for the record (timeout, network, too large, redirects)
 */
export async function performFetch(
  request: FetchRequest,
  policy: OutboundPolicy,
): Promise<FetchResponse> {
  let response: Response;
  try {
    response = await outboundFetch(
      request.url,
      {
        method: request.method,
        headers: request.headers,
        body: request.body,
        signal: AbortSignal.timeout(request.timeoutMs),
      },
      policy,
      MAX_REDIRECTS,
    );
  } catch (error) {
    if (error instanceof DestinationNotAllowed || error instanceof RedirectFailed) throw error;
    const name = error instanceof Error ? error.name : "";
    if (name === "TimeoutError" || name === "AbortError") {
      throw new Error(`No response within ${request.timeoutMs / 1000} seconds.`);
    }
    throw new Error(
      `The request could not be sent: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const text = await readText(response);
  return { status: response.status, headers, body: parseBody(text, headers["content-type"]) };
}

/** What a failed `performFetch` puts on its node: the message, and the policy's code for a refusal. */
export function fetchFailure(error: unknown): { message: string; code?: NodeRun["errorCode"] } {
  const message = error instanceof Error ? error.message : String(error);
  return error instanceof DestinationNotAllowed ? { message, code: error.code } : { message };
}

async function readText(response: Response): Promise<string> {
  if (!response.body) return "";
  const bytes = await readLimited(response.body, MAX_RESPONSE_BYTES);
  if (bytes === null) throw new Error(`The response is larger than ${MAX_RESPONSE_BYTES} bytes.`);
  return new TextDecoder().decode(bytes);
}

function parseBody(text: string, contentType: string | undefined): JsonValue {
  if (
    text !== "" &&
    contentType &&
    /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(contentType)
  ) {
    try {
      return JSON.parse(text);
    } catch {
      // A server that says JSON and sends something else: keep the text rather than fail the node.
    }
  }
  return text;
}
