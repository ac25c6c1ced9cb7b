/**
 * A fixed-bucket latency histogram (docs/operations.md#metrics): four buckets per doubling from
 * 1 ms to 2^17 ms; a percentile is its bucket's geometric middle, within 9.06 % (+0.5 ms rounding).
 * Histograms add bucket by bucket, losing no precision. Stored sparse.
 */

/** Bucket index → how many answers fell in it. */
export type Histogram = Record<string, number>;

/** Buckets per doubling of the answer time. */
const PER_DOUBLING = 4;
/** The last bucket, which holds every answer of 2^17 ms (≈ 2.2 min) or more. */
const LAST = 17 * PER_DOUBLING + 1;

/**
 * The bucket of an answer time: 0 under 1 ms; k ≥ 1 holds [2^((k-1)/4), 2^(k/4)) ms.
 * @param ms milliseconds (negative counts as 0)
 */
export function bucketOf(ms: number): number {
  if (!(ms >= 1)) return 0;
  return Math.min(LAST, 1 + Math.floor(PER_DOUBLING * Math.log2(ms) + 1e-9));
}

/** The time (ms, rounded) a bucket stands for: the geometric middle of its bounds; 0 for bucket 0. */
export function bucketValue(bucket: number): number {
  if (bucket <= 0) return 0;
  return Math.round(2 ** ((bucket - 0.5) / PER_DOUBLING));
}

/** Counts one answer time (ms) into `histogram`. */
export function addLatency(histogram: Histogram, ms: number): void {
  const key = String(bucketOf(ms));
  histogram[key] = (histogram[key] ?? 0) + 1;
}

/** Adds `from` into `into`, bucket by bucket; returns `into`. */
export function mergeHistogram(into: Histogram, from: Histogram): Histogram {
  for (const [key, count] of Object.entries(from)) into[key] = (into[key] ?? 0) + count;
  return into;
}

/** The `p` quantile (0 < p ≤ 1): the bucket value of rank ⌈p × n⌉; null when empty. */
export function percentile(histogram: Histogram, p: number): number | null {
  const buckets = Object.entries(histogram)
    .map(([key, count]) => [Number(key), count] as const)
    .filter(([, count]) => count > 0)
    .sort((a, b) => a[0] - b[0]);
  const total = buckets.reduce((sum, [, count]) => sum + count, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(p * total));
  let seen = 0;
  for (const [bucket, count] of buckets) {
    seen += count;
    if (seen >= rank) return bucketValue(bucket);
  }
  return bucketValue(buckets.at(-1)?.[0] ?? 0);
}
