/**
 * Links (docs/dashboard.md#screens): `/app/links` searches the workspace's links, and
 * `/app/links/{id}` shows one with its conversation. One screen in the navigation, two views.
 */
import type { PathParams } from "../../router";
import { LinkDetail } from "./LinkDetail";
import { LinkList } from "./LinkList";
import "./links.css";

/** The Links screen: the search at `/app/links`, a link's page at `/app/links/{id}` (docs/dashboard.md#screens). */
export function Links({ canChange, params }: { canChange: boolean; params: PathParams }) {
  return params.id ? <LinkDetail id={params.id} canChange={canChange} /> : <LinkList />;
}
