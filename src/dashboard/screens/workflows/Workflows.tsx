/**
 * Workflows (docs/dashboard.md#screens): every workflow with its slug, status and webhook URLs
 * (a copy button each); Owners and Admins create, start and stop one. A workflow's name opens
 * it in the editor, beside its executions and request log.
 */
import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../api";
import { followLink } from "../../router";
import { CopyButton } from "../../ui/CopyButton";
import { Badge } from "../../ui/data";
import { ListStatus } from "../../ui/feedback";
import { NewWorkflow } from "./NewWorkflow";
import { StartStop } from "./StartStop";
import { workflowPaths } from "./status";

/** `/app/workflows` (docs/dashboard.md#screens): the table; `canChange` shows Start and Stop. */
export function Workflows({ canChange }: { canChange: boolean }) {
  const workflows = useQuery({
    queryKey: ["workflows"],
    queryFn: () => unwrap(api.GET("/v1/manage/workflows")),
  });
  return (
    <section aria-labelledby="workflows-title">
      <h1 id="workflows-title" tabIndex={-1}>
        Workflows
      </h1>
      <p className="muted">
        A running workflow's webhook URLs start executions; a stopped one's answer 404.
      </p>
      {canChange ? (
        <div className="actions">
          <NewWorkflow />
        </div>
      ) : null}
      <ListStatus query={workflows} what="workflows" count={workflows.data?.data.length}>
        No workflows yet.
      </ListStatus>
      {workflows.data && workflows.data.data.length > 0 ? (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Slug</th>
                <th scope="col">Status</th>
                <th scope="col">Webhook URLs</th>
                {canChange ? (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {workflows.data.data.map((workflow) => (
                <tr key={workflow.id}>
                  <th scope="row">
                    <a href={workflowPaths(workflow.id).editor} onClick={followLink}>
                      {workflow.name}
                    </a>
                  </th>
                  <td className="nowrap">
                    <code>{workflow.slug}</code>
                  </td>
                  <td>
                    <Badge tone={workflow.status === "running" ? "ok" : "off"}>
                      {workflow.status}
                    </Badge>
                  </td>
                  <td>
                    <WebhookUrls urls={workflow.webhookUrls} />
                  </td>
                  {canChange ? (
                    <td>
                      <StartStop workflow={workflow} />
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
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
