/**
 * The dashboard's shell (docs/dashboard.md#screens): who is signed in to which workspace, the
 * navigation, and the current screen. Controls a member cannot use are not shown; the API refuses
 * them anyway.
 */
import { type ComponentType, useEffect, useMemo } from "react";
import { useMe } from "./queries";
import { followLink, matchPath, type PathParams, replacePath, usePath } from "./router";
import { Agents } from "./screens/Agents";
import { AuditLog } from "./screens/audit/AuditLog";
import { EndpointPage } from "./screens/events/EndpointPage";
import { Events } from "./screens/events/Events";
import { Links } from "./screens/links/Links";
import { Members } from "./screens/Members";
import { Overview } from "./screens/overview/Overview";
import { Passkeys } from "./screens/Passkeys";
import { Secrets } from "./screens/Secrets";
import { WidgetKeys } from "./screens/WidgetKeys";
import { Execution } from "./screens/workflows/Execution";
import {
  WorkflowEditor,
  WorkflowExecutions,
  WorkflowRequests,
} from "./screens/workflows/WorkflowPage";
import { Workflows } from "./screens/workflows/Workflows";
import { ErrorNote, Loading } from "./ui/feedback";
import { LeavePrompt } from "./ui/LeavePrompt";

/**
 * `path` may have `:name` segments (router.ts); screens with them are reached by links, not the
 * nav. `writers`: for Owners and Admins only, so the nav does not offer it to members.
 */
type Screen = {
  path: string;
  label: string;
  Component: ComponentType<{ canChange: boolean; params: PathParams }>;
  writers?: true;
};

const SCREENS: Screen[] = [
  { path: "/app/overview", label: "Overview", Component: Overview },
  { path: "/app/agents", label: "Agents", Component: Agents },
  { path: "/app/workflows", label: "Workflows", Component: Workflows },
  { path: "/app/workflows/:id", label: "Executions", Component: WorkflowExecutions },
  { path: "/app/workflows/:id/editor", label: "Editor", Component: WorkflowEditor },
  { path: "/app/workflows/:id/requests", label: "Request log", Component: WorkflowRequests },
  { path: "/app/workflows/:id/executions/:executionId", label: "Execution", Component: Execution },
  { path: "/app/links", label: "Links", Component: Links },
  { path: "/app/links/:id", label: "Link", Component: Links },
  { path: "/app/settings/api-access/widget-keys", label: "Widget keys", Component: WidgetKeys },
  { path: "/app/settings/passkeys", label: "Your passkeys", Component: Passkeys },
  { path: "/app/settings/secrets", label: "Secrets", Component: Secrets },
  { path: "/app/settings/members", label: "Members", Component: Members },
  { path: "/app/settings/events", label: "Events", Component: Events },
  { path: "/app/settings/events/:id", label: "Event endpoint", Component: EndpointPage },
  { path: "/app/settings/audit-log", label: "Audit log", Component: AuditLog, writers: true },
];

const ROLES = { owner: "Owner", admin: "Admin", member: "Member" } as const;

export function App() {
  const me = useMe();
  const path = usePath();
  // A new object on every navigation, even between two paths of one screen.
  const current = useMemo(() => findScreen(path), [path]);
  const screen = current.screen;
  useEffect(() => {
    // An unknown path (or /app itself) shows the first screen under its own address.
    if (screen && !matchPath(screen.path, path)) replacePath(screen.path);
  }, [screen, path]);
  useEffect(() => {
    if (!current.screen) return;
    document.title = `${current.screen.label} · agent-edge`;
    // After navigating, the screen's heading takes focus, so a screen reader says where we are.
    document.querySelector<HTMLElement>("main h1")?.focus();
  }, [current]);
  if (me.isPending) return <Loading what="your workspace" />;
  if (me.isError || !screen) return <ErrorNote error={me.error} />;
  const { member, workspace } = me.data;
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">agent-edge</span>
        <span className="workspace">{workspace.name}</span>
        <span className="who">
          {member.name} · {ROLES[member.role]}
        </span>
        <form method="post" action="/sign-out">
          <button type="submit" className="link-button">
            Sign out
          </button>
        </form>
      </header>
      <div className="layout">
        <nav aria-label="Dashboard">
          <ul>
            {SCREENS.filter(
              (item) => !item.path.includes("/:") && (!item.writers || member.role !== "member"),
            ).map((item) => (
              <li key={item.path}>
                <a
                  href={item.path}
                  aria-current={
                    item === screen ? "page" : screen.path.startsWith(`${item.path}/`) || undefined
                  }
                  onClick={followLink}
                >
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main">
          <screen.Component canChange={member.role !== "member"} params={current.params} />
        </main>
      </div>
      <LeavePrompt />
    </>
  );
}

/** The screen whose path matches (the first one for an unknown path) and its path parameters. */
function findScreen(path: string): { screen: Screen | undefined; params: PathParams } {
  for (const candidate of SCREENS) {
    const params = matchPath(candidate.path, path);
    if (params) return { screen: candidate, params };
  }
  return { screen: SCREENS[0], params: {} };
}
