/**
 * One workflow (docs/dashboard.md#screens): its name, status and webhook URLs above three tabs,
 * Editor (`/app/workflows/{id}/editor`), Executions (`/app/workflows/{id}`) and Request log
 * (`/app/workflows/{id}/requests`). The tabs are links, so each has its own address and the
 * browser's back button goes between them.
 */
import { lazy, type ReactNode, Suspense } from "react";
import { followLink, type PathParams } from "../../router";
import { Badge } from "../../ui/data";
import { ErrorNote, Loading } from "../../ui/feedback";
import { ExecutionList } from "./ExecutionList";
import { useWorkflow } from "./queries";
import { RequestLog } from "./RequestLog";
import { StartStop } from "./StartStop";
import { workflowPaths } from "./status";

type Props = { canChange: boolean; params: PathParams };

// React Flow loads with the editor, not with the dashboard (docs/dashboard.md#workflow-editor).
const Editor = lazy(() => import("./editor/Editor"));

/** `/app/workflows/{id}/editor`: the workflow on a canvas. */
export function WorkflowEditor({ canChange, params }: Props) {
  const id = params.id ?? "";
  const workflow = useWorkflow(id);
  return (
    <WorkflowPage id={id} tab="editor" canChange={canChange}>
      <Suspense fallback={<Loading what="the editor" />}>
        {workflow.data ? <Editor workflow={workflow.data} canChange={canChange} /> : null}
      </Suspense>
    </WorkflowPage>
  );
}

/** `/app/workflows/{id}`: the workflow's executions, newest first. */
export function WorkflowExecutions({ canChange, params }: Props) {
  const id = params.id ?? "";
  return (
    <WorkflowPage id={id} tab="executions" canChange={canChange}>
      <ExecutionList workflowId={id} />
    </WorkflowPage>
  );
}

/** `/app/workflows/{id}/requests`: the calls to the workflow's webhook URLs, refusals included. */
export function WorkflowRequests({ canChange, params }: Props) {
  const id = params.id ?? "";
  return (
    <WorkflowPage id={id} tab="requests" canChange={canChange}>
      <RequestLog workflowId={id} />
    </WorkflowPage>
  );
}

function WorkflowPage(props: {
  id: string;
  tab: "editor" | "executions" | "requests";
  canChange: boolean;
  children: ReactNode;
}) {
  const workflow = useWorkflow(props.id);
  const paths = workflowPaths(props.id);
  const tabs = [
    { key: "editor", label: "Editor", href: paths.editor },
    { key: "executions", label: "Executions", href: paths.executions },
    { key: "requests", label: "Request log", href: paths.requests },
  ] as const;
  return (
    <section aria-labelledby="workflow-title">
      <p className="breadcrumb">
        <a href="/app/workflows" onClick={followLink}>
          Workflows
        </a>{" "}
        ›
      </p>
      <h1 id="workflow-title" tabIndex={-1}>
        {workflow.data?.name ?? "Workflow"}
      </h1>
      {workflow.isError ? <ErrorNote error={workflow.error} /> : null}
      {workflow.data ? (
        <div className="actions">
          <Badge tone={workflow.data.status === "running" ? "ok" : "off"}>
            {workflow.data.status}
          </Badge>
          <code>{workflow.data.slug}</code>
          {props.canChange ? <StartStop workflow={workflow.data} /> : null}
        </div>
      ) : null}
      <nav className="tabs" aria-label="Workflow">
        <ul>
          {tabs.map((tab) => (
            <li key={tab.key}>
              <a
                href={tab.href}
                aria-current={tab.key === props.tab ? "page" : undefined}
                onClick={followLink}
              >
                {tab.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {props.children}
    </section>
  );
}
