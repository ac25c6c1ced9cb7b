/**
 * The meter's tally and the recording it adds to (docs/performance.md#how-the-counts-are-made):
 * the patches of patches.ts call `record` and `track`; `measure` in meter.ts opens and closes
 * recordings.
 */

export const OBJECT_CLASSES = ["LinkLedger", "WorkflowRunner", "Conversation"] as const;
export type ObjectClass = (typeof OBJECT_CLASSES)[number];

/** What one operation cost, as Cloudflare counts it. */
export type Tally = {
  /** Requests to the Worker (`fetch`) and queue consumer invocations. */
  workerInvocations: number;
  /** Queue consumer invocations among `workerInvocations`. */
  queueInvocations: number;
  /** RPC calls and fetches on stubs, and alarms, by class. */
  objectCalls: Record<ObjectClass, number>;
  /** Incoming WebSocket messages handled by objects (billed 20 to a request). */
  socketMessages: number;
  /** Round trips to D1 (a batch is one). */
  d1Queries: number;
  d1RowsRead: number;
  /** Rows written as D1 bills them: a table row and each index entry it changes. */
  d1RowsWritten: number;
  /** Table rows D1 inserted, changed or deleted (`meta.changes`), index entries aside. */
  d1Changes: number;
  objectRowsRead: number;
  objectRowsWritten: number;
  /** Messages put on the queue. */
  queueMessages: number;
  /** Messages handed to the queue consumer (each read, then deleted or retried). */
  queueMessagesConsumed: number;
  /** Each statement and storage call with its rows (`read/written`), to explain a figure. */
  trace: string[];
};

type Cursor = { readonly rowsRead: number; readonly rowsWritten: number };
/** A tally being filled, with the SQL cursors whose rows are added when it closes. */
export type Recording = {
  tally: Tally;
  /** Each cursor with its line of the trace, filled in when the recording closes. */
  cursors: { sql: string; cursor: Cursor; line: number }[];
};

export const newRecording = (): Recording => ({
  tally: {
    workerInvocations: 0,
    queueInvocations: 0,
    objectCalls: { LinkLedger: 0, WorkflowRunner: 0, Conversation: 0 },
    socketMessages: 0,
    d1Queries: 0,
    d1RowsRead: 0,
    d1RowsWritten: 0,
    d1Changes: 0,
    objectRowsRead: 0,
    objectRowsWritten: 0,
    queueMessages: 0,
    queueMessagesConsumed: 0,
    trace: [],
  },
  cursors: [],
});

/** The recording calls are added to, if any; and the recordings a queue invocation opens. */
export const state: { current?: Recording; splitAtQueue?: Recording[] } = {};
let inFlight = 0;
let lastActivity = 0;

/** One line of a trace: whitespace folded, cut to a readable length. */
export const short = (text: unknown) => String(text).replace(/\s+/g, " ").trim().slice(0, 100);

const touch = () => {
  lastActivity = Date.now();
};

/** Adds to the current recording (if any) and marks activity for `settle`. */
export function record(change: (tally: Tally) => void): void {
  touch();
  if (state.current) change(state.current.tally);
}

/** Adds an SQL cursor to the current recording: its rows count once the operation settled. */
export function recordCursor(sql: string, cursor: Cursor): void {
  touch();
  const recording = state.current;
  if (!recording) return;
  recording.cursors.push({ sql: short(sql), cursor, line: recording.tally.trace.length });
  recording.tally.trace.push("");
}

/** Counts `value`, when it is a promise, as work in flight until it settles; returns it unchanged. */
export function track<T>(value: T): T {
  if (value === null || typeof (value as { then?: unknown }).then !== "function") return value;
  inFlight++;
  touch();
  const done = () => {
    inFlight--;
    touch();
  };
  Promise.resolve(value).then(done, done);
  return value;
}

/** Waits until nothing the meter sees is in flight and nothing happened for `quietMs`. */
export async function settle(quietMs = 150): Promise<void> {
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    if (inFlight === 0 && Date.now() - lastActivity >= quietMs) return;
  }
}

/** The recording's tally with its cursors' rows added. */
export function close(recording: Recording): Tally {
  const tally = recording.tally;
  for (const { sql, cursor, line } of recording.cursors) {
    tally.objectRowsRead += cursor.rowsRead;
    tally.objectRowsWritten += cursor.rowsWritten;
    tally.trace[line] = `SQL ${cursor.rowsRead}/${cursor.rowsWritten} ${sql}`;
  }
  return tally;
}
