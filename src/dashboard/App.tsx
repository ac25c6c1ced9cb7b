/**
 * The dashboard's shell (docs/dashboard.md#screens): who is signed in to which workspace, the
 * navigation, and the current screen. Controls a member cannot use are not shown; the API refuses
 * them anyway.
 */
import { useQuery } from "@tanstack/react-query";
import { type ComponentType, useEffect } from "react";
import { api, unwrap } from "./api";
import { followLink, matchPath, usePath } from "./router";
import { Agents } from "./screens/Agents";
import { Links } from "./screens/links/Links";
import { WidgetKeys } from "./screens/WidgetKeys";
import { ErrorNote, Loading } from "./ui/feedback";

type Screen = { path: string; label: string; Component: ComponentType<{ canChange: boolean }> };

const SCREENS: Screen[] = [
  { path: "/app/agents", label: "Agents", Component: Agents },
  { path: "/app/links", label: "Links", Component: Links },
  { path: "/app/settings/api-access/widget-keys", label: "Widget keys", Component: WidgetKeys },
];

const ROLES = { owner: "Owner", admin: "Admin", member: "Member" } as const;

export function App() {
  const me = useQuery({ queryKey: ["me"], queryFn: () => unwrap(api.GET("/v1/manage/me")) });
  const path = usePath();
  const screen = SCREENS.find((candidate) => matchPath(candidate.path, path)) ?? SCREENS[0];
  useEffect(() => {
    if (!screen) return;
    document.title = `${screen.label} · agent-edge`;
    // After navigating, the screen's heading takes focus, so a screen reader says where we are.
    document.querySelector<HTMLElement>("main h1")?.focus();
  }, [screen]);
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
            {SCREENS.map((item) => (
              <li key={item.path}>
                <a
                  href={item.path}
                  aria-current={item === screen ? "page" : undefined}
                  onClick={followLink}
                >
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main">
          <screen.Component canChange={member.role !== "member"} />
        </main>
      </div>
    </>
  );
}
