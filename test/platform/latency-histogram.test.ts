/**
 * The fixed-bucket latency histogram of the metrics (docs/operations.md#metrics): percentiles of
 * known answer times within 9 %, the same whether counted in one histogram or merged from many.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addLatency,
  bucketOf,
  bucketValue,
  type Histogram,
  mergeHistogram,
  percentile,
} from "../../src/platform/latency-histogram";

/** The exact `p` quantile of sorted values, by the same rank rule: the ⌈p × n⌉-th. */
const exact = (sorted: number[], p: number) =>
  sorted[Math.max(1, Math.ceil(p * sorted.length)) - 1] as number;

const histogramOf = (values: number[]) => {
  const histogram: Histogram = {};
  for (const ms of values) addLatency(histogram, ms);
  return histogram;
};

describe("latency histogram", () => {
  it("tells p50 and p99 of 1 to 1,000 ms within 9 %", () => {
    const values = Array.from({ length: 1000 }, (_, i) => i + 1);
    const histogram = histogramOf(values);
    expect(percentile(histogram, 0.5)).toBeGreaterThanOrEqual(500 * 0.91);
    expect(percentile(histogram, 0.5)).toBeLessThanOrEqual(500 * 1.09);
    expect(percentile(histogram, 0.99)).toBeGreaterThanOrEqual(990 * 0.91);
    expect(percentile(histogram, 0.99)).toBeLessThanOrEqual(990 * 1.09);
  });

  it("is exact for 1 to 5 ms, 0 under 1 ms, and null with nothing counted", () => {
    for (const ms of [1, 2, 3, 4, 5]) expect(bucketValue(bucketOf(ms))).toBe(ms);
    expect(bucketOf(0)).toBe(0);
    expect(bucketOf(-5)).toBe(0);
    expect(percentile(histogramOf([0, 0, 0]), 0.5)).toBe(0);
    expect(percentile({}, 0.5)).toBeNull();
  });

  it("holds answers past 2^17 ms in its last bucket", () => {
    expect(bucketOf(200_000)).toBe(bucketOf(131_072));
    expect(bucketOf(131_071)).toBeLessThan(bucketOf(131_072));
  });

  it("any percentile of any times is within 9.06 % and half a millisecond of rounding, merged or not", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 120_000 }), { minLength: 1, maxLength: 300 }),
        fc.array(fc.integer({ min: 1, max: 120_000 }), { maxLength: 300 }),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        (a, b, p) => {
          const merged = mergeHistogram(histogramOf(a), histogramOf(b));
          const all = [...a, ...b].sort((x, y) => x - y);
          const told = percentile(merged, p) as number;
          const truth = exact(all, p);
          // A bucket is 2^(1/4) wide and told by its geometric middle (2^(1/8) ≈ 1.0905 from either
          // bound), then rounded to the millisecond.
          expect(Math.abs(told - truth)).toBeLessThanOrEqual(truth * 0.0906 + 0.5);
          expect(merged).toEqual(histogramOf(all));
        },
      ),
    );
  });
});
