/**
 * Cloudflare's published rates past each plan's included amounts, read 2026-11-23
 * (docs/performance.md#rates), and the price of one million calls from an operation's counts.
 * CPU time and object duration are left out: their figures come from `npm run bench`.
 */
import { billedObjectRequests, type Tally } from "./meter";

/** US dollars per one million units. */
export const RATES = {
  workerRequests: 0.3,
  cpuMs: 0.02,
  objectRequests: 0.15,
  /** Per million GB-s; an object is billed as 128 MB. */
  objectGbSeconds: 12.5,
  rowsRead: 0.001,
  rowsWritten: 1.0,
  queueOperations: 0.4,
} as const;

/** The counts of one call, as docs/performance.md#counts-per-call shows them. */
export type Counts = {
  workerInvocations: number;
  objectRequests: number;
  d1RowsRead: number;
  d1RowsWritten: number;
  objectRowsRead: number;
  objectRowsWritten: number;
  /** A message costs a write when sent, a read and a delete (or a retry) when consumed. */
  queueOperations: number;
};

export function countsOf(tally: Tally): Counts {
  return {
    workerInvocations: tally.workerInvocations,
    objectRequests: billedObjectRequests(tally),
    d1RowsRead: tally.d1RowsRead,
    d1RowsWritten: tally.d1RowsWritten,
    objectRowsRead: tally.objectRowsRead,
    objectRowsWritten: tally.objectRowsWritten,
    queueOperations: tally.queueMessages + 2 * tally.queueMessagesConsumed,
  };
}

/** US dollars for one million calls, by line, CPU and object duration aside. */
export type Price = {
  workers: number;
  objectRequests: number;
  d1Rows: number;
  objectRows: number;
  queues: number;
  total: number;
};

export function pricePerMillion(counts: Counts): Price {
  const workers = counts.workerInvocations * RATES.workerRequests;
  const objectRequests = counts.objectRequests * RATES.objectRequests;
  const d1Rows = counts.d1RowsRead * RATES.rowsRead + counts.d1RowsWritten * RATES.rowsWritten;
  const objectRows =
    counts.objectRowsRead * RATES.rowsRead + counts.objectRowsWritten * RATES.rowsWritten;
  const queues = counts.queueOperations * RATES.queueOperations;
  const total = workers + objectRequests + d1Rows + objectRows + queues;
  return { workers, objectRequests, d1Rows, objectRows, queues, total };
}
