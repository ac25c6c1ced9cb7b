import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { workspaces } from "../../src/db/schema";
import { D1WriteBatcher } from "../../src/platform/d1-write-batcher";

const db = drizzle(env.DB);
const row = (slug: string) => ({ id: `ws_batch_${slug}`, slug, name: slug, createdAt: Date.now() });

describe("D1WriteBatcher", () => {
  it("groups writes that overlap an in-flight one into a single round trip", async () => {
    const writer = new D1WriteBatcher(env.DB);
    const slugs = Array.from(
      { length: 10 },
      (_, i) => `group-${i}-${crypto.randomUUID().slice(0, 8)}`,
    );
    const [first, ...rest] = slugs;
    const started = writer.run(db.insert(workspaces).values(row(first as string)));
    // A macrotask later the first write is in flight; the nine made now wait for it.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const queued = rest.map((slug) => writer.run(db.insert(workspaces).values(row(slug))));
    await Promise.all([started, ...queued]);
    // The first write went alone; the nine queued behind it shared the next round trip.
    expect(writer.roundTrips).toBe(2);
    for (const slug of slugs) {
      expect(
        await db.select().from(workspaces).where(eq(workspaces.slug, slug)).get(),
      ).toBeDefined();
    }
  });

  it("sends writes made in the same turn as one round trip", async () => {
    const writer = new D1WriteBatcher(env.DB);
    const slugs = Array.from(
      { length: 5 },
      (_, i) => `turn-${i}-${crypto.randomUUID().slice(0, 8)}`,
    );
    await Promise.all(slugs.map((slug) => writer.run(db.insert(workspaces).values(row(slug)))));
    expect(writer.roundTrips).toBe(1);
  });

  it("rejects only the write that fails on its own", async () => {
    const writer = new D1WriteBatcher(env.DB);
    const taken = `taken-${crypto.randomUUID().slice(0, 8)}`;
    await writer.run(db.insert(workspaces).values(row(taken)));
    const fresh = [1, 2].map((i) => `fresh-${i}-${crypto.randomUUID().slice(0, 8)}`);
    const results = await Promise.allSettled([
      writer.run(db.insert(workspaces).values(row(`${fresh[0]}`))),
      writer.run(db.insert(workspaces).values({ ...row(taken), id: "ws_batch_duplicate_slug" })),
      writer.run(db.insert(workspaces).values(row(`${fresh[1]}`))),
    ]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    for (const slug of fresh) {
      expect(
        await db.select().from(workspaces).where(eq(workspaces.slug, slug)).get(),
      ).toBeDefined();
    }
  });
});
