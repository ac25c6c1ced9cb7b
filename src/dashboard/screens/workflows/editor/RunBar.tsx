/**
 * The editor's run bar (docs/dashboard.md#workflow-editor): choose one of the recent executions to
 * see on the canvas, open it, or debug it (its trigger data becomes the sample); and, for Owners
 * and Admins, test the saved workflow from its webhook: "Test workflow" arms its test URL with
 * `run` (docs/webhooks.md#test-runs) and shows the run of the next call, "Run with last sample"
 * (or with the debugged execution's data) runs it at once.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { api, type Schemas, unwrap } from "../../../api";
import { followLink, navigate } from "../../../router";
import { CopyField } from "../../../ui/CopyField";
import { ErrorNote } from "../../../ui/feedback";
import { workflowPaths } from "../status";
import { useRunState } from "./run-context";
import { executionLabel } from "./run-format";

const RECENT = 20;

type Props = { workflow: Schemas["Workflow"]; canChange: boolean; dirty: boolean };

/** The run bar of the editor of `workflow`. */
export function RunBar({ workflow, canChange, dirty }: Props) {
  const run = useRunState();
  const [waitingSince, setWaitingSince] = useState<Set<string> | null>(null);
  const recent = useQuery({
    queryKey: ["executions", workflow.id, "recent"],
    queryFn: () =>
      unwrap(
        api.GET("/v1/manage/workflows/{id}/executions", {
          params: { path: { id: workflow.id }, query: { limit: RECENT } },
        }),
      ),
    // While a test call is awaited, the list is read every 2 s to find its run.
    refetchInterval: waitingSince ? 2_000 : false,
  });
  const list = recent.data?.data ?? [];
  const arrived = waitingSince
    ? list.find((execution) => execution.mode === "test" && !waitingSince.has(execution.id))
    : undefined;
  const choose = run?.choose;
  useEffect(() => {
    if (!arrived || !choose) return;
    setWaitingSince(null);
    choose(arrived.id);
  }, [arrived, choose]);
  if (!run) return null;
  const paths = workflowPaths(workflow.id);
  const listed = list.some((execution) => execution.id === run.chosen);
  return (
    <section className="run-bar" aria-label="Runs on the canvas">
      <label>
        Run on the canvas
        <select
          value={run.chosen ?? ""}
          onChange={(event) => run.choose(event.target.value || null)}
        >
          <option value="">None</option>
          {run.chosen && !listed ? (
            <option value={run.chosen}>
              {run.execution ? executionLabel(run.execution) : run.chosen}
            </option>
          ) : null}
          {list.map((execution) => (
            <option key={execution.id} value={execution.id}>
              {executionLabel(execution)}
            </option>
          ))}
        </select>
      </label>
      <button type="button" className="small" onClick={() => void recent.refetch()}>
        Refresh runs
      </button>
      {run.chosen ? (
        <>
          <a href={paths.execution(run.chosen)} onClick={followLink}>
            Open execution
          </a>
          {run.debug?.executionId === run.chosen ? null : (
            <button
              type="button"
              className="small"
              onClick={() =>
                navigate(`${paths.editor}?debug=${encodeURIComponent(run.chosen ?? "")}`)
              }
            >
              Debug in editor
            </button>
          )}
        </>
      ) : null}
      {canChange ? (
        <TestRun
          workflow={workflow}
          dirty={dirty}
          known={async () => {
            // Read now, so a test run already listed is never taken for the one awaited.
            const { data } = await recent.refetch();
            const tests = (data?.data ?? []).filter((execution) => execution.mode === "test");
            return new Set(tests.map((execution) => execution.id));
          }}
          waiting={waitingSince !== null}
          onArmed={(known) => setWaitingSince(known)}
        />
      ) : null}
      {run.debug ? (
        <p role="status" className="muted run-wide">
          Debugging <code>{run.debug.executionId}</code>: its call is the sample of{" "}
          <code>{run.debug.key}</code> in templates and for the next test.
        </p>
      ) : null}
    </section>
  );
}

/** "Test workflow" and "Run with last sample", for the workflow's first webhook node. */
function TestRun(props: {
  workflow: Schemas["Workflow"];
  dirty: boolean;
  known: () => Promise<Set<string>>;
  waiting: boolean;
  onArmed: (known: Set<string>) => void;
}) {
  const { workflow } = props;
  const run = useRunState();
  const queries = useQueryClient();
  const key = Object.keys(workflow.webhookUrls)[0];
  const path = { id: workflow.id, key: key ?? "" };
  const arm = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/v1/manage/workflows/{id}/nodes/{key}/capture", {
          params: { path },
          body: { count: 1, ttlSeconds: 600, run: true },
        }),
      ),
    onMutate: async () => props.onArmed(await props.known()),
  });
  const debug = run?.debug?.key === key ? run?.debug : null;
  const now = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/v1/manage/workflows/{id}/nodes/{key}/test-runs", {
          params: { path },
          body: debug ? { executionId: debug.executionId } : {},
        }),
      ),
    onSuccess: (started) => {
      run?.choose(started.executionId);
      void queries.invalidateQueries({ queryKey: ["executions", workflow.id] });
    },
  });
  if (!key) return null;
  return (
    <>
      <button type="button" disabled={arm.isPending} onClick={() => arm.mutate()}>
        Test workflow
      </button>
      <button type="button" disabled={now.isPending} onClick={() => now.mutate()}>
        {debug ? "Run with the debugged call" : "Run with last sample"}
      </button>
      {props.dirty ? (
        <span className="muted">Tests run the saved workflow: save your changes first.</span>
      ) : null}
      {arm.isError || now.isError ? (
        <div className="run-wide">
          <ErrorNote error={arm.error ?? now.error} />
        </div>
      ) : null}
      {arm.data && props.waiting ? (
        <div className="run-wide">
          <CopyField label="Test URL" what="the test URL" value={arm.data.testUrl} />
          <p role="status">
            Waiting for a call to the test URL: it runs the saved workflow, shown on the canvas when
            it comes.
          </p>
        </div>
      ) : null}
    </>
  );
}
