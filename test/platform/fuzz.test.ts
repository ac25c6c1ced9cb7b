/**
 * Schema fuzz test (docs/errors.md): requests generated with fast-check from the OpenAPI document
 * the Worker serves, over every operation it lists, so a new route is fuzzed (and must be reached)
 * the day it is added. Each operation is first called a few times with real ids and bodies known
 * to be accepted; then come mixed requests over random operations, half valid-shaped (the
 * operation's own credential: widget key, member token or session, operator token, none; ids of
 * real objects, test/helpers/fuzz-world.ts; query, headers and body honouring their schemas,
 * test/helpers/fuzz-schema.ts), half with one part broken (test/helpers/fuzz-requests.ts).
 * Every answer: no 5xx, a status the document lists for the operation, and for an error the one
 * envelope with a code the document lists for the operation at that status. A request with a
 * defect the document refuses is never answered with a success, and every operation answers at
 * least one request with success, so the handlers ran, not only the validators.
 *
 * The seed is new each run and printed; FUZZ_SEED=<n> (passed in by vitest.config.ts) replays a
 * run: `FUZZ_SEED=<n> npx vitest run test/platform/fuzz.test.ts` generates the same requests. The
 * clock moves 250 ms a request so rate limits do not turn the run into 429s; the mixed requests
 * stop at a time bound.
 */
import { env, exports } from "cloudflare:workers";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ERROR_CODES, type ErrorCode } from "../../src/platform/errors";
import { call, expectJson, ORIGIN } from "../helpers/api";
import {
  type Draft,
  type Mode,
  type Operation,
  type OperationsDocument,
  operationsOf,
} from "../helpers/fuzz-operations";
import { requestFor } from "../helpers/fuzz-requests";
import { type FuzzWorld, seedWorld } from "../helpers/fuzz-world";
import { codesAt, type OpenApiDocument } from "../helpers/openapi";

/** Requests per operation sent first, with real ids and known-good bodies, however long it takes. */
const FIRST_ROUND = 3;
/** Requests after the first round, over random operations, half of them broken. */
const RUNS = 2_000;
/** Sending of the mixed requests stops after this long; what was sent is checked. */
const TIME_BOUND_MS = 20_000;
const CONCURRENCY = 8;

/** FUZZ_SEED when given, else a new 31-bit seed. */
function chooseSeed(): number {
  const given = (env as unknown as { FUZZ_SEED?: string }).FUZZ_SEED ?? "";
  if (given === "") return (crypto.getRandomValues(new Uint32Array(1))[0] as number) >>> 1;
  const seed = Number(given);
  if (!Number.isSafeInteger(seed)) throw new Error(`FUZZ_SEED must be an integer, not "${given}"`);
  return seed;
}

const SEED = chooseSeed();
const REPLAY = `FUZZ_SEED=${SEED} npx vitest run test/platform/fuzz.test.ts`;

let document: OpenApiDocument & OperationsDocument & Parameters<typeof seedWorld>[0];
let operations: Operation[] = [];
let world: FuzzWorld;

beforeAll(async () => {
  document = await expectJson(await call("GET", "/openapi.json"), 200);
  operations = operationsOf(document);
  world = await seedWorld(document);
  vi.useFakeTimers({ toFake: ["Date"] });
}, 60_000);

afterAll(() => {
  vi.useRealTimers();
});

/** Whether `url`'s path (after the URL parser removed dot segments) is still the operation's. */
function reachesOperation(op: Operation, url: URL): boolean {
  const pattern = op.path.replace(/\{[^}]+\}/g, "[^/]+");
  return new RegExp(`^${pattern}$`).test(url.pathname);
}

/**
 * What is wrong with one answer, or null. An id such as `..` makes the URL name another path; the
 * answer must still be the envelope, but it is that path's, not the operation's.
 */
async function problemWith(draft: Draft, url: URL, response: Response): Promise<string | null> {
  const { op } = draft;
  const status = response.status;
  if (status >= 500) return `status ${status}: ${await response.text()}`;
  const requestId = response.headers.get("x-request-id");
  if (!requestId) return `no x-request-id on ${status}`;
  const reached = reachesOperation(op, url);
  if (reached && !op.statuses.has(status)) return `status ${status} is not in the document`;
  if (status < 400) {
    await response.body?.cancel();
    if (draft.strict) return `status ${status} although the document refuses it (${draft.broken})`;
    return null;
  }
  const text = await response.text();
  let body: {
    error?: { code?: string; message?: unknown; details?: unknown; requestId?: unknown };
  };
  try {
    body = JSON.parse(text);
  } catch {
    return `status ${status} without a JSON body: ${text.slice(0, 200)}`;
  }
  const error = body.error;
  const code = error?.code as ErrorCode | undefined;
  const known = code ? ERROR_CODES[code] : undefined;
  if (!known) return `unknown error code in ${text.slice(0, 200)}`;
  if (!(known.status as readonly number[]).includes(status))
    return `${code} answered with ${status}`;
  if (typeof error?.message !== "string" || !Array.isArray(error.details)) {
    return `not the envelope: ${text.slice(0, 200)}`;
  }
  if (error.requestId !== requestId) return `requestId ${error.requestId}, header ${requestId}`;
  if (
    reached &&
    !codesAt(document, op.path, op.method.toLowerCase(), status).includes(code as string)
  ) {
    return `${code} at ${status} is not documented for the operation`;
  }
  return null;
}

/** The first round, then the mixed requests, all from the seed. */
function generate(): Draft[] {
  const arbitraries = new Map(
    operations.map((op) => [
      op.key,
      {
        first: requestFor(op, world, "first"),
        valid: requestFor(op, world, "valid"),
        broken: requestFor(op, world, "broken"),
      },
    ]),
  );
  const arbitrary = (op: Operation, mode: Mode) =>
    arbitraries.get(op.key)?.[mode] as fc.Arbitrary<Draft>;
  const first = operations.flatMap((op, index) =>
    fc.sample(arbitrary(op, "first"), { numRuns: FIRST_ROUND, seed: (SEED + index) | 0 }),
  );
  const mixed = fc.sample(
    fc
      .tuple(fc.constantFrom(...operations), fc.constantFrom<Mode>("valid", "broken"))
      .chain(([op, mode]) => arbitrary(op, mode)),
    { numRuns: RUNS, seed: SEED },
  );
  return [...first, ...mixed];
}

describe("schema fuzz (fast-check over /openapi.json)", () => {
  it("answers generated requests over every operation: no 5xx, only documented answers, every handler reached", {
    timeout: 120_000,
  }, async () => {
    console.info(`schema fuzz: seed ${SEED}; replay with ${REPLAY}`);
    // Issue 34 counted 66; a route that drops out of the document must be noticed too.
    expect(operations.length).toBeGreaterThanOrEqual(66);
    const requests = generate();
    const firstRound = operations.length * FIRST_ROUND;
    const sent = new Map<string, number>();
    const succeeded = new Map<string, number>();
    // Every problem is kept (not only the first), one example per operation and kind.
    const problems = new Map<string, string>();
    const note = (draft: Draft, problem: string) => {
      const kind = `${draft.op.key}: ${problem.replace(/:.*$/s, "")}`;
      if (problems.has(kind)) return;
      const body = draft.body === undefined ? "" : ` ${draft.body.slice(0, 300)}`;
      problems.set(
        kind,
        `${draft.op.method} ${draft.path.slice(0, 200)} ${JSON.stringify(draft.headers)}${body} [${draft.broken ?? "valid"}] → ${problem.slice(0, 400)}`,
      );
    };
    let clock = Date.now();
    const started = performance.now();
    let next = 0;
    // Sent 8 at a time: each answer is checked on its own, so the order of sending changes only
    // the time the run takes (and which of two racing changes wins, which any answer may show).
    const worker = async () => {
      for (let index = next++; index < requests.length; index = next++) {
        // The first round is always sent, so every operation is reached however slow the machine.
        if (index >= firstRound && performance.now() - started > TIME_BOUND_MS) return;
        clock += 250;
        vi.setSystemTime(clock);
        let draft = requests[index] as Draft;
        try {
          draft = await world.resolve(draft);
        } catch (error) {
          note(draft, `could not prepare the request: ${String(error)}`);
          continue;
        }
        sent.set(draft.op.key, (sent.get(draft.op.key) ?? 0) + 1);
        const url = new URL(`${ORIGIN}${draft.path}`);
        const init = { method: draft.op.method, headers: draft.headers, body: draft.body };
        const response = await exports.default.fetch(new Request(url, init));
        if (response.status < 400)
          succeeded.set(draft.op.key, (succeeded.get(draft.op.key) ?? 0) + 1);
        if (response.webSocket) {
          response.webSocket.accept();
          response.webSocket.close(1000, "fuzz");
        }
        const problem = await problemWith(draft, url, response);
        if (problem) note(draft, problem);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const total = [...sent.values()].reduce((a, b) => a + b, 0);
    console.info(
      `schema fuzz: ${total} of ${requests.length} requests over ${sent.size} of ${operations.length} operations in ${Math.round(performance.now() - started)} ms; ${[...succeeded.values()].reduce((a, b) => a + b, 0)} succeeded`,
    );
    const keys = operations.map((op) => op.key);
    expect(
      keys.filter((key) => !sent.has(key)),
      `operations never called; ${REPLAY}`,
    ).toEqual([]);
    expect(
      keys.filter((key) => !succeeded.has(key)),
      `operations never answered with success; ${REPLAY}`,
    ).toEqual([]);
    expect([...problems.values()], REPLAY).toEqual([]);
  });
});
