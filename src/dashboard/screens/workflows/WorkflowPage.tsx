/**
 * One workflow (docs/dashboard.md#screens): its name, status and webhook URLs above three tabs,
 * Editor (`/app/workflows/{id}/editor`), Executions (`/app/workflows/{id}`) and Request log
 * (`/app/workflows/{id}/requests`). The tabs are links, so each has its own address and the
 * browser's back button goes between them.
 */
import { lazy, type ReactNode, Suspense } from "react";
import type { Schemas } from "../../api";
import { followLink, type PathParams } from "../../router";
import { ErrorNote, Loading } from "../../ui/feedback";
import { Screen, Trail } from "../../ui/Screen";
import { ExecutionList } from "./ExecutionList";
import { useWorkflow } from "./queries";
import { RequestLog } from "./RequestLog";
import { StartStop, WorkflowStatus } from "./StartStop";
import { workflowPaths } from "./status";

type Props = { canChange: boolean; params: PathParams };
type Workflow = Schemas["Workflow"];

// React Flow loads with the editor, not with the dashboard (docs/dashboard.md#workflow-editor).
const Editor = lazy(() => import("./editor/Editor"));

/** `/app/workflows/{id}/editor`: the workflow on a canvas. */
export function WorkflowEditor(props: Props) {
  return (
    <WorkflowPage {...props} tab="editor">
      {(_, workflow) => (
        <Suspense fallback={<Loading what="the editor" />}>
          {workflow ? <Editor workflow={workflow} canChange={props.canChange} /> : null}
        </Suspense>
      )}
    </WorkflowPage>
  );
}

/** `/app/workflows/{id}`: the workflow's executions, newest first. */
export function WorkflowExecutions(props: Props) {
  return (
    <WorkflowPage {...props} tab="executions">
      {(id) => <ExecutionList workflowId={id} />}
    </WorkflowPage>
  );
}

/** `/app/workflows/{id}/requests`: the calls to the workflow's webhook URLs, refusals included. */
export function WorkflowRequests(props: Props) {
  return (
    <WorkflowPage {...props} tab="requests">
      {(id) => <RequestLog workflowId={id} />}
    </WorkflowPage>
  );
}

/** Workflow `params.id`'s page with tab `tab` open: `children` gets the id and the workflow. */
function WorkflowPage(
  props: Props & {
    tab: "editor" | "executions" | "requests";
    children: (id: string, workflow: Workflow | undefined) => ReactNode;
  },
) {
  const id = props.params.id ?? "";
  const workflow = useWorkflow(id);
  const paths = workflowPaths(id);
  const tabs = [
    { key: "editor", label: "Editor", href: paths.editor },
    { key: "executions", label: "Executions", href: paths.executions },
    { key: "requests", label: "Request log", href: paths.requests },
  ] as const;
  return (
    <Screen
      title={workflow.data?.name ?? "Workflow"}
      breadcrumb={<Trail links={[{ href: "/app/workflows", label: "Workflows" }]} />}
    >
      {workflow.isError ? <ErrorNote error={workflow.error} /> : null}
      {workflow.data ? (
        <div className="actions">
          <WorkflowStatus workflow={workflow.data} />
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
      {props.children(id, workflow.data)}
    </Screen>
  );
}
