/**
 * The one group-commit writer (docs/architecture.md#storage): changes made together cost one write,
 * changes made while a write is in flight cost one more, never one each, and a deadline is kept.
 */
import { describe, expect, it } from "vitest";
import { GroupCommit } from "../../src/platform/group-commit";

/** A writer whose writes take `ms` and record what was pending when each began. */
function recorder(ms: number) {
  let pending: number[] = [];
  const writes: number[][] = [];
  const commit = new GroupCommit(async () => {
    writes.push(pending);
    pending = [];
    await new Promise((resolve) => setTimeout(resolve, ms));
  });
  const add = (value: number, within = 0) => {
    pending.push(value);
    return commit.request(within);
  };
  return { add, writes };
}

describe("GroupCommit", () => {
  it("writes changes made in the same turn once", async () => {
    const { add, writes } = recorder(1);
    await Promise.all([add(1), add(2), add(3)]);
    expect(writes).toEqual([[1, 2, 3]]);
  });

  it("gathers changes made during a write into one next write", async () => {
    const { add, writes } = recorder(20);
    const first = add(1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const during = [add(2), add(3), add(4)];
    await Promise.all([first, ...during]);
    expect(writes).toEqual([[1], [2, 3, 4]]);
  });

  it("waits up to the window for company, and an earlier deadline moves the write forward", async () => {
    const { add, writes } = recorder(0);
    const started = Date.now();
    const late = add(1, 200);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(writes).toEqual([]);
    await Promise.all([late, add(2, 0)]);
    expect(writes).toEqual([[1, 2]]);
    expect(Date.now() - started).toBeLessThan(150);
  });

  it("rejects the waiters of a failed write, and writes again afterwards", async () => {
    let fail = true;
    let writes = 0;
    const commit = new GroupCommit(async () => {
      writes++;
      if (fail) throw new Error("disk full");
    });
    await expect(commit.request(0)).rejects.toThrow("disk full");
    fail = false;
    await expect(commit.request(0)).resolves.toBeUndefined();
    expect(writes).toBe(2);
  });
});
