/**
 * A workflow's status, running or stopped, and starting or stopping it
 * (docs/api/manage.md#workflows), for Owners and Admins: a stopped workflow's webhook URLs answer
 * 404 to every caller. The outcome is announced next to the button.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "../../api";
import { Badge } from "../../ui/data";
import { ErrorNote } from "../../ui/feedback";

type Workflow = Schemas["Workflow"];

/** Stop for a running `workflow`, Start for a stopped one, with the result announced. */
export function StartStop({ workflow }: { workflow: Workflow }) {
  const queries = useQueryClient();
  const running = workflow.status === "running";
  const change = useMutation({
    mutationFn: (stop: boolean) => {
      const params = { params: { path: { id: workflow.id } } };
      return unwrap(
        stop
          ? api.POST("/v1/manage/workflows/{id}/stop", params)
          : api.POST("/v1/manage/workflows/{id}/start", params),
      );
    },
    onSuccess: (updated) => {
      queries.setQueryData(["workflow", updated.id], updated);
      void queries.invalidateQueries({ queryKey: ["workflows"] });
    },
  });
  const said = change.data
    ? change.data.status === "running"
      ? `${change.data.name} is running: its webhook URLs accept calls.`
      : `${change.data.name} is stopped: its webhook URLs answer 404.`
    : "";
  return (
    <span className="actions">
      <button
        type="button"
        className={running ? "danger" : "primary"}
        disabled={change.isPending}
        onClick={() => change.mutate(running)}
      >
        {running ? "Stop" : "Start"}
        <span className="visually-hidden"> {workflow.name}</span>
      </button>
      <span role="status">{said}</span>
      {change.isError ? <ErrorNote error={change.error} /> : null}
    </span>
  );
}

/** The status of `workflow` as a badge: running or stopped. */
export function WorkflowStatus({ workflow }: { workflow: Workflow }) {
  return <Badge tone={workflow.status === "running" ? "ok" : "off"}>{workflow.status}</Badge>;
}
