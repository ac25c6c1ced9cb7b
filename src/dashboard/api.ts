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

type Answer<T> = { data?: T; error?: unknown; response: Response };

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
