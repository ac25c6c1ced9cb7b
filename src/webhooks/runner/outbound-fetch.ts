/**
 * Sends an http_request node's request for real (docs/api/webhooks.md) and reads the response the way later
 * nodes want it: lower-case headers and a body parsed as JSON when it says it is JSON, else text.
 */
import type { JsonValue } from "../../platform/json";
import { readLimited } from "../../platform/read-limited";
import type { FetchRequest, FetchResponse } from "../../workflow/types";

/** Responses larger than this are cut off rather than held in the runner's memory. */
export const MAX_RESPONSE_BYTES = 1_048_576;

/**
 * Performs the request with its timeout.
 * @throws Error with a message fit for the execution record (timeout, network failure, too large)
 */
export async function performFetch(request: FetchRequest): Promise<FetchResponse> {
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.method === "GET" || request.method === "HEAD" ? null : request.body,
      signal: AbortSignal.timeout(request.timeoutMs),
      redirect: "follow",
    });
  } catch (error) {
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
