/**
 * The run shown on the canvas (docs/dashboard.md#workflow-editor): which execution the builder
 * chose, its record (read again every second until it ends), each node's run by key for the nodes'
 * badges, and the "Debug in editor" execution named by `?debug=exe_…`, whose trigger data stands in
 * for the trigger's newest captured sample in templates and is what the next test runs with.
 */
import { useQuery } from "@tanstack/react-query";
import { createContext, type ReactNode, useContext, useMemo, useState } from "react";
import { api, type Schemas, unwrap } from "../../../api";
import { useSearch } from "../../../router";
import { debugParam, debugSampleOf, type NodeRunSummary, runsByKey } from "./run-format";

type Execution = Schemas["Execution"];

/** What the editor's run pieces share. */
export type RunState = {
  workflowId: string;
  /** The execution shown on the canvas, or null for none. */
  chosen: string | null;
  choose: (executionId: string | null) => void;
  execution: Execution | undefined;
  runs: Map<string, NodeRunSummary>;
  /** The "Debug in editor" execution and its trigger data, once read. */
  debug: { executionId: string; key: string; output: unknown } | null;
};

const RunContext = createContext<RunState | null>(null);

/** One execution of workflow `workflowId`, read again every second until it has finished. */
export function executionQuery(workflowId: string, executionId: string) {
  return {
    queryKey: ["execution", workflowId, executionId],
    queryFn: () =>
      unwrap(
        api.GET("/v1/manage/workflows/{id}/executions/{executionId}", {
          params: { path: { id: workflowId, executionId } },
        }),
      ),
    refetchInterval: (query: { state: { data?: Execution | undefined } }) =>
      query.state.data && query.state.data.finishedAt === null ? 1_000 : (false as const),
  };
}

/** Holds the run state of the editor of workflow `workflowId`; the debug execution starts chosen. */
export function RunProvider({ workflowId, children }: { workflowId: string; children: ReactNode }) {
  const debugId = debugParam(useSearch());
  const [picked, setPicked] = useState<{ id: string | null } | null>(null);
  // Another "Debug in editor" while open: its execution is shown again, whatever was picked.
  const [debugSeen, setDebugSeen] = useState(debugId);
  if (debugSeen !== debugId) {
    setDebugSeen(debugId);
    setPicked(null);
  }
  // Until the builder picks, the debug execution (if any) is the one shown.
  const chosen = picked ? picked.id : debugId;
  const execution = useQuery({
    ...executionQuery(workflowId, chosen ?? ""),
    enabled: chosen !== null,
  });
  const debugged = useQuery({
    ...executionQuery(workflowId, debugId ?? ""),
    enabled: debugId !== null,
  });
  const shown = chosen === null ? undefined : execution.data;
  const state = useMemo<RunState>(() => {
    const sample = debugId ? debugSampleOf(debugged.data) : null;
    return {
      workflowId,
      chosen,
      choose: (id) => setPicked({ id }),
      execution: shown,
      runs: runsByKey(shown),
      debug: debugId && sample ? { executionId: debugId, ...sample } : null,
    };
  }, [workflowId, chosen, shown, debugId, debugged.data]);
  return <RunContext.Provider value={state}>{children}</RunContext.Provider>;
}

/** The run state; null outside a `RunProvider`. */
export function useRunState(): RunState | null {
  return useContext(RunContext);
}

/** Node `key`'s run in the execution shown on the canvas, if it ran. */
export function useNodeRun(key: string): NodeRunSummary | undefined {
  return useContext(RunContext)?.runs.get(key);
}

/** The "Debug in editor" sample (the debug execution's trigger data), or null. */
export function useDebugSample(): { key: string; output: unknown } | null {
  return useContext(RunContext)?.debug ?? null;
}
