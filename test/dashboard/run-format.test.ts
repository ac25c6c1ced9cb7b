/**
 * A run on the canvas, its pure parts (docs/dashboard.md#workflow-editor): each node's status,
 * duration, one-line output preview and error by key; the picker's label; the "Debug in editor"
 * sample from the execution's trigger, put in place of the node's newest; the `?debug=` id.
 */
import { describe, expect, it } from "vitest";
import type { Schemas } from "../../src/dashboard/api";
import {
  debugParam,
  debugSampleOf,
  executionLabel,
  PREVIEW_CHARS,
  preview,
  runsByKey,
  withDebugSample,
} from "../../src/dashboard/screens/workflows/editor/run-format";

const at = (ms: number) => new Date(Date.UTC(2026, 10, 26, 12, 0, 0, ms)).toISOString();
const execution: Schemas["Execution"] = {
  id: "exe_1",
  workflowId: "wf_1",
  status: "failed",
  trigger: { key: "webhook_1", type: "webhook" },
  nodes: [
    {
      key: "webhook_1",
      type: "webhook",
      status: "succeeded",
      output: { body: { id: 7 } },
      startedAt: at(0),
      finishedAt: at(0),
    },
    {
      key: "call",
      type: "http_request",
      status: "failed",
      error: "The server answered 503.",
      startedAt: at(0),
      finishedAt: at(840),
    },
  ],
  startedAt: at(0),
  finishedAt: at(840),
  replayOf: null,
  queuedAt: null,
  mode: "test",
};

describe("a run on the canvas", () => {
  it("gives each node its status, duration, preview and error", () => {
    const runs = runsByKey(execution);
    expect(runs.get("webhook_1")).toEqual({
      status: "succeeded",
      took: "0 ms",
      preview: '{"body":{"id":7}}',
      error: null,
      runs: 1,
    });
    expect(runs.get("call")).toMatchObject({ status: "failed", took: "840 ms", preview: null });
    expect(runs.get("call")?.error).toBe("The server answered 503.");
    expect(runs.get("other")).toBeUndefined();
    expect(runsByKey(undefined).size).toBe(0);
  });

  it("cuts long outputs on one line and counts a node that ran twice", () => {
    const long = preview({ text: "x".repeat(200) }) ?? "";
    expect(long).toHaveLength(PREVIEW_CHARS);
    expect(long.endsWith("…")).toBe(true);
    expect(preview(undefined)).toBeNull();
    expect(preview(null)).toBe("null");
    const twice = { ...execution, nodes: [...execution.nodes, ...execution.nodes.slice(1)] };
    expect(runsByKey(twice).get("call")?.runs).toBe(2);
  });

  it("labels an execution with its status, time and test mode", () => {
    expect(executionLabel(execution, "en-GB")).toMatch(/^failed · .+ · test$/);
    expect(executionLabel({ ...execution, mode: "production" }, "en-GB")).not.toContain("test");
  });

  it("loads the trigger's data as the debug sample, in place of the newest", () => {
    const debug = debugSampleOf(execution);
    expect(debug).toEqual({ key: "webhook_1", output: { body: { id: 7 } } });
    expect(withDebugSample({ webhook_1: { body: { id: 1 } }, other: 2 }, debug)).toEqual({
      webhook_1: { body: { id: 7 } },
      other: 2,
    });
    const newest = { webhook_1: 1 };
    expect(withDebugSample(newest, null)).toBe(newest);
    expect(debugSampleOf(undefined)).toBeNull();
    expect(debugSampleOf({ ...execution, nodes: [] })).toBeNull();
  });

  it("reads the debug execution from the address, refusing anything else", () => {
    expect(debugParam("?debug=exe_abc-1")).toBe("exe_abc-1");
    expect(debugParam("?debug=wf_1")).toBeNull();
    expect(debugParam("")).toBeNull();
  });
});
