/**
 * The dashboard's API client (docs/dashboard.md): `openapi-fetch` typed from the same OpenAPI
 * document as the SDK, so every screen uses only public operations. The session cookie goes
 * along; `X-Requested-With` marks the calls as the dashboard's (docs/dashboard.md#sign-in).
 */
import createClient from "openapi-fetch";
import type { components, paths } from "../../sdk/src/schema";

export type Schemas = components["schemas"];

export const api = createClient<paths>({
  baseUrl: window.location.origin,
  credentials: "same-origin",
  headers: { "x-requested-with": "agent-edge-dashboard" },
});

/** One of an error's `details`: for invalid_request, the field and what is wrong with it. */
export type ErrorDetail = { field?: string; code?: string; message?: string };

/** An API error in the one envelope, thrown so TanStack Query shows it. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
  }
}

/** What an `api` call answers (openapi-fetch): the data, or the error envelope, and the response. */
export type Answer<T> = { data?: T; error?: unknown; response: Response };

/**
 * The data of a successful answer. A 401 (the session ended) sends the browser to sign in again.
 * @throws ApiFailure with the envelope's code and message
 */
export async function unwrap<T>(call: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  if (response.status === 401) window.location.assign("/sign-in");
  const envelope = (
    error as { error?: { code?: string; message?: string; details?: unknown } } | undefined
  )?.error;
  throw new ApiFailure(
    response.status,
    envelope?.code ?? "internal_error",
    envelope?.message ?? `The request failed (${response.status}).`,
    Array.isArray(envelope?.details) ? (envelope.details as ErrorDetail[]) : [],
  );
}

/** Pages of 100 `readAll` reads at most: 10,000 items, far past what a workspace keeps. */
const READ_ALL_PAGES = 100;

/**
 * Every item of a list the API answers a page at a time (docs/api/README.md#lists-and-paging),
 * for the lists a screen shows whole or looks names up in (agents, members, widget keys, …):
 * `page` reads the page after `cursor` (none: the first), 100 items at a time.
 * @returns the items in the list's order, as one last page
 */
export async function readAll<T>(
  page: (query: { limit: number; cursor?: string }) => Promise<{
    data: T[];
    nextCursor: string | null;
  }>,
): Promise<{ data: T[]; hasMore: false; nextCursor: null }> {
  const data: T[] = [];
  let cursor: string | null = null;
  for (let read = 0; read < READ_ALL_PAGES; read++) {
    const next: { data: T[]; nextCursor: string | null } = await page({
      limit: 100,
      ...(cursor ? { cursor } : {}),
    });
    data.push(...next.data);
    cursor = next.nextCursor;
    if (cursor === null) break;
  }
  return { data, hasMore: false, nextCursor: null };
}
