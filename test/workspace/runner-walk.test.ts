/**
 * The walk of every runner a job does (docs/architecture.md#maintenance-jobs): a step visits up to
 * 25 runners at once; a runner with more records is taken up alone from where its page ended, the
 * runners after it in that step visited once more; every page of every runner is done at the end.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { walkRunners } from "../../src/workspace/jobs/runner-pages";
import { seedWorkspace } from "../helpers/api";
import { createWorkflow } from "../helpers/workflows";

describe("walkRunners", () => {
  it("does every page of every runner of the workspace, many at once, and ends", async () => {
    const ws = await seedWorkspace();
    const flows = [];
    for (let n = 0; n < 30; n++)
      flows.push(await createWorkflow(ws, { nodes: [{ type: "webhook" }] }));
    // The runner of the 3rd workflow has three pages of records; every other one, one.
    const heavy = env.WORKFLOW_RUNNER.idFromName(flows[2]?.id ?? "").toString();
    const pages = new Map<string, (string | null)[]>();
    let inFlight = 0;
    let most = 0;
    let steps = 0;
    let cursor: string | null = null;
    do {
      const step = await walkRunners(env, cursor, ws.workspaceId, async (runner, after) => {
        const id = runner.id.toString();
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight -= 1;
        pages.set(id, [...(pages.get(id) ?? []), after]);
        const next = id === heavy && after !== "p2" ? (after === null ? "p1" : "p2") : null;
        return { next, counts: { pages: 1 } };
      });
      cursor = step.cursor;
      steps += 1;
    } while (cursor !== null && steps < 20);
    expect(cursor).toBeNull();
    expect(pages.size).toBe(30);
    expect(pages.get(heavy)).toEqual([null, "p1", "p2"]);
    for (const [id, seen] of pages) if (id !== heavy) expect(seen[0]).toBeNull();
    // 25 at once; the heavy runner's other pages alone; then the rest at once.
    expect(steps).toBeLessThanOrEqual(4);
    // Only runners that followed the heavy one in its step are visited twice, never more.
    const again = [...pages.entries()].filter(([id, seen]) => id !== heavy && seen.length > 1);
    expect(again.length).toBeLessThanOrEqual(24);
    for (const [, seen] of again) expect(seen).toEqual([null, null]);
    expect(most).toBe(25);
  });
});
