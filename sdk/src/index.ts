/**
 * The agent-edge SDK: a typed client of the Widget Launch API (docs/api/launch.md), generated types
 * (`schema.ts`, openapi-typescript) on `openapi-fetch`, with retries that are safe to make:
 * 429 (after its `Retry-After`), 5xx and network errors are retried with backoff, and a create
 * carries one `Idempotency-Key` on every attempt, so a retry never makes a second link.
 */
import createFetchClient from "openapi-fetch";
import { AgentEdgeError, type ErrorBody } from "./errors.js";
import type { components, paths } from "./schema.js";

export { AgentEdgeError } from "./errors.js";
export {
  type ConversationAnalysis,
  type EndReason,
  type Event,
  type EventType,
  EventVerificationError,
  type LifecycleEvent,
  type TestEvent,
  verifyEvent,
} from "./events.js";
export type { components, paths } from "./schema.js";

export type CreateLaunch = components["schemas"]["CreateLaunch"];
export type CreatedLaunch = components["schemas"]["CreatedLaunch"];
export type Launch = components["schemas"]["Launch"];
export type LaunchList = components["schemas"]["LaunchList"];
/**
 * A page of any list of the API (docs/api/README.md#lists-and-paging): `data` in the list's order,
 * `nextCursor` the `cursor` of the next page (null on the last).
 */
export type Page<T> = components["schemas"]["Page"] & { data: T[] };
/** Filters of `launches.list`; `cursor` is managed by the iterator. */
export type ListFilters = Omit<
  NonNullable<paths["/v1/widget/launches"]["get"]["parameters"]["query"]>,
  "cursor"
>;

export type ClientOptions = {
  /** The service's origin, e.g. `https://launch.example.com`. */
  baseUrl: string;
  /** A widget key (`wk_live_…`); keep it on your server. */
  apiKey: string;
  /** Attempts after the first, for 429, 5xx and network errors (default 3). */
  maxRetries?: number;
  /** First backoff in ms, doubled per attempt with jitter (default 500). */
  backoffMs?: number;
  /** A fetch to use instead of the global one (tests, proxies). */
  fetch?: (request: Request) => Promise<Response>;
};

type Attempt<T> = () => Promise<{ data?: T; error?: unknown; response: Response }>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Every item of a paged list, in its order, reading the next page only when the items before are
 * used (`for await`): `page` reads the page at `cursor` (undefined: the first). Stops at the page
 * whose `nextCursor` is null, or at one that names the cursor it was read with.
 */
export async function* eachItem<T>(
  page: (cursor: string | undefined) => Promise<Page<T>>,
): AsyncGenerator<T> {
  let cursor: string | undefined;
  for (;;) {
    const read: Page<T> = await page(cursor);
    yield* read.data;
    if (read.nextCursor === null || read.nextCursor === cursor) return;
    cursor = read.nextCursor;
  }
}

/** Creates a client of the Widget Launch API for one widget key. */
export function createClient(options: ClientOptions) {
  const maxRetries = options.maxRetries ?? 3;
  const backoffMs = options.backoffMs ?? 500;
  const api = createFetchClient<paths>({
    baseUrl: options.baseUrl.replace(/\/$/, ""),
    headers: { authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });

  /** Runs `attempt` until it succeeds, fails for good, or runs out of retries. */
  async function withRetries<T>(attempt: Attempt<T>): Promise<T> {
    for (let tries = 0; ; tries++) {
      let result: Awaited<ReturnType<Attempt<T>>> | undefined;
      let networkError: unknown;
      try {
        result = await attempt();
      } catch (error) {
        networkError = error;
      }
      const status = result?.response.status ?? 0;
      if (result && result.error === undefined && status < 400) return result.data as T;
      const retryable = networkError !== undefined || status === 429 || status >= 500;
      if (!retryable || tries >= maxRetries) {
        if (networkError !== undefined) throw networkError;
        throw AgentEdgeError.from(status, result?.error as ErrorBody | undefined, result?.response);
      }
      const retryAfter = Number(result?.response.headers.get("retry-after"));
      const backoff = backoffMs * 2 ** tries * (0.5 + Math.random() / 2);
      await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : backoff);
    }
  }

  const launches = {
    /**
     * Creates a link. Every attempt sends the same `Idempotency-Key` (yours, or one made here),
     * so a retried create returns the first link, token included, and never makes a second.
     */
    create(body: CreateLaunch, request: { idempotencyKey?: string } = {}): Promise<CreatedLaunch> {
      const idempotencyKey = request.idempotencyKey ?? crypto.randomUUID();
      return withRetries(() =>
        api.POST("/v1/widget/launches", {
          body,
          params: { header: { "idempotency-key": idempotencyKey } },
        }),
      );
    },
    /** Looks a link up: never its token or parameters. */
    get(id: string): Promise<Launch> {
      return withRetries(() => api.GET("/v1/widget/launches/{id}", { params: { path: { id } } }));
    },
    /** Revokes a link; safe to repeat. */
    async revoke(id: string): Promise<void> {
      await withRetries(() => api.DELETE("/v1/widget/launches/{id}", { params: { path: { id } } }));
    },
    /** Ends the link's conversation from your server, keeping the link; safe to repeat. */
    async end(id: string): Promise<void> {
      await withRetries(() =>
        api.POST("/v1/widget/launches/{id}/end", { params: { path: { id } } }),
      );
    },
    /** One page of links, newest first. */
    page(filters: ListFilters & { cursor?: string } = {}): Promise<LaunchList> {
      return withRetries(() => api.GET("/v1/widget/launches", { params: { query: filters } }));
    },
    /** Every link that matches, newest first, fetching pages as they are needed (`for await`). */
    list(filters: ListFilters = {}): AsyncGenerator<Launch> {
      return eachItem((cursor) => launches.page({ ...filters, ...(cursor ? { cursor } : {}) }));
    },
  };

  return { launches };
}
