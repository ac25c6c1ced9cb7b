/**
 * Workflows (docs/dashboard.md#screens): every workflow with its slug, status and webhook URLs
 * (a copy button each); Owners and Admins create, start and stop one. A workflow's name opens
 * it in the editor, beside its executions and request log.
 */
import { useQuery } from "@tanstack/react-query";
import { api, readAll, unwrap } from "../../api";
import { followLink } from "../../router";
import { CopyButton } from "../../ui/CopyButton";
import { DataTable } from "../../ui/DataTable";
import { Screen } from "../../ui/Screen";
import { NewWorkflow } from "./NewWorkflow";
import { StartStop, WorkflowStatus } from "./StartStop";
import { workflowPaths } from "./status";

/** `/app/workflows` (docs/dashboard.md#screens): the table; `canChange` shows Start and Stop. */
export function Workflows({ canChange }: { canChange: boolean }) {
  const workflows = useQuery({
    queryKey: ["workflows"],
    queryFn: () =>
      readAll((query) => unwrap(api.GET("/v1/manage/workflows", { params: { query } }))),
  });
  return (
    <Screen
      title="Workflows"
      intro="A running workflow's webhook URLs start executions; a stopped one's answer 404."
    >
      {canChange ? (
        <div className="actions">
          <NewWorkflow />
        </div>
      ) : null}
      <DataTable
        status={{ query: workflows, what: "workflows", empty: "No workflows yet." }}
        rows={workflows.data?.data}
        columns={[
          {
            label: "Name",
            cell: (workflow) => (
              <a href={workflowPaths(workflow.id).editor} onClick={followLink}>
                {workflow.name}
              </a>
            ),
          },
          { label: "Slug", className: "nowrap", cell: (workflow) => <code>{workflow.slug}</code> },
          { label: "Status", cell: (workflow) => <WorkflowStatus workflow={workflow} /> },
          {
            label: "Webhook URLs",
            cell: (workflow) => <WebhookUrls urls={workflow.webhookUrls} />,
          },
        ]}
        actions={canChange && ((workflow) => <StartStop workflow={workflow} />)}
      />
    </Screen>
  );
}

/** Each webhook node's URL by key, with a copy button; a workflow may have none (other triggers). */
function WebhookUrls({ urls }: { urls: Record<string, string> }) {
  const entries = Object.entries(urls);
  if (entries.length === 0) return <span className="muted">None</span>;
  return (
    <ul className="urls">
      {entries.map(([key, url]) => (
        <li key={key}>
          <span className="muted">{key}: </span>
          <code className="anywhere">{url}</code>{" "}
          <CopyButton text={url} what={`the URL of ${key}`} />
        </li>
      ))}
    </ul>
  );
}
