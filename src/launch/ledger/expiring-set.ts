/**
 * A set of ids with expiries (epoch ms) counting unexpired members: a map plus a min-heap with lazy
 * removal, O(log n) per expired member.
 */
export class ExpiringSet {
  private readonly members = new Map<string, number>();
  private heap: [expiresAt: number, id: string][] = [];

  /** Unexpired members at `now`. */
  size(now: number): number {
    this.prune(now);
    return this.members.size;
  }

  add(id: string, expiresAt: number): void {
    this.members.set(id, expiresAt);
    this.push([expiresAt, id]);
  }

  /** @returns whether `id` was a member. */
  delete(id: string): boolean {
    return this.members.delete(id);
  }

  /** The earliest expiry (epoch ms) among unexpired members at `now`; null when there is none. */
  earliest(now: number): number | null {
    this.prune(now);
    for (let top = this.heap[0]; top !== undefined; top = this.heap[0]) {
      if (this.members.get(top[1]) === top[0]) return top[0];
      this.pop();
    }
    return null;
  }

  clear(): void {
    this.members.clear();
    this.heap = [];
  }

  private prune(now: number): void {
    for (let top = this.heap[0]; top !== undefined && top[0] <= now; top = this.heap[0]) {
      this.pop();
      if (this.members.get(top[1]) === top[0]) this.members.delete(top[1]);
    }
    // Lazy deletes leave stale heap entries; rebuild when they outnumber live ones.
    if (this.heap.length > 1024 && this.heap.length > 2 * this.members.size) {
      this.heap = [];
      for (const [id, expiresAt] of this.members) this.push([expiresAt, id]);
    }
  }

  private push(entry: [number, string]): void {
    const heap = this.heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((heap[parent] as [number, string])[0] <= entry[0]) break;
      heap[i] = heap[parent] as [number, string];
      i = parent;
    }
    heap[i] = entry;
  }

  private pop(): void {
    const heap = this.heap;
    const last = heap.pop();
    if (last === undefined || heap.length === 0) return;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child =
        right < heap.length &&
        (heap[right] as [number, string])[0] < (heap[left] as [number, string])[0]
          ? right
          : left;
      if ((heap[child] as [number, string])[0] >= last[0]) break;
      heap[i] = heap[child] as [number, string];
      i = child;
    }
    heap[i] = last;
  }
}
