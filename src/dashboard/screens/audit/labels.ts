/**
 * How the Audit log screen words an entry (docs/dashboard.md#screens): each action as a phrase,
 * grouped by what it acts on for the filter, each target's kind, and the filters as they travel
 * in the address's query string. The actions are the Worker's own list (src/audit/actions/index.ts), so
 * an action added there without a phrase here fails the type check.
 */
import { AUDIT_ACTIONS, type AuditAction, type TargetType } from "../../../audit/actions";

/** What each action did, as a sentence without its subject. */
export const ACTION_LABELS: Record<AuditAction, string> = {
  "workspace.created": "Created the workspace",
  "workspace.deleted": "Deleted a workspace",
  "workspace.updated": "Changed the workspace's retention",
  "reseal.started": "Started a reseal",
  "member.invited": "Invited a member",
  "member.role_changed": "Changed a member's role",
  "member.removed": "Removed a member",
  "member.sign_in_link_created": "Made a sign-in link",
  "widget_key.created": "Created a widget key",
  "widget_key.revoked": "Revoked a widget key",
  "agent.created": "Created an agent",
  "agent.updated": "Changed an agent",
  "agent.deleted": "Deleted an agent",
  "channel.created": "Added a channel",
  "channel.updated": "Changed a channel",
  "channel.preview_link_created": "Previewed a channel's widget",
  "secret.set": "Set a secret",
  "secret.deleted": "Deleted a secret",
  "workflow.created": "Created a workflow",
  "workflow.updated": "Saved a workflow",
  "workflow.deleted": "Deleted a workflow",
  "workflow.started": "Started a workflow",
  "workflow.stopped": "Stopped a workflow",
  "workflow.replayed": "Replayed executions",
  "workflow.capture_armed": "Armed a test URL",
  "workflow.test_run": "Ran a test",
  "link.revoked": "Revoked a link",
  "link.ended": "Ended a link's conversation",
  "event_endpoint.created": "Added an event endpoint",
  "event_endpoint.updated": "Changed an event endpoint",
  "event_endpoint.deleted": "Deleted an event endpoint",
  "event_endpoint.secret_rotated": "Rotated an endpoint's secret",
  "event_endpoint.test_sent": "Sent a test event",
  "event_endpoint.recovered": "Resent failed deliveries",
  "event_delivery.resent": "Resent a delivery",
  "erasure.requested": "Asked to erase a person",
  "session.signed_in": "Signed in",
  "session.signed_out": "Signed out",
  "passkey.added": "Added a passkey",
  "passkey.removed": "Removed a passkey",
};

/** Each kind of target as a noun. */
export const TARGET_LABELS: Record<TargetType, string> = {
  workspace: "Workspace",
  member: "Member",
  widget_key: "Widget key",
  agent: "Agent",
  channel: "Channel",
  link: "Link",
  secret: "Secret",
  workflow: "Workflow",
  event_endpoint: "Event endpoint",
  event_delivery: "Delivery",
  erasure: "Erasure",
  reseal: "Reseal",
  session: "Session",
  sign_in_link: "Sign-in link",
  passkey: "Passkey",
};

/** The action filter's groups, by the part of an action before its dot. */
const GROUPS: [string, string[]][] = [
  ["Members and sign-in", ["member", "session", "passkey"]],
  ["Widget keys", ["widget_key"]],
  ["Agents and channels", ["agent", "channel"]],
  ["Secrets", ["secret"]],
  ["Workflows", ["workflow"]],
  ["Links and erasures", ["link", "erasure"]],
  ["Events", ["event_endpoint", "event_delivery"]],
  ["Workspace", ["workspace", "reseal"]],
];

/** The actions grouped for the filter's `<optgroup>`s, each with its phrase. */
export const ACTION_GROUPS = GROUPS.map(([label, prefixes]) => ({
  label,
  actions: AUDIT_ACTIONS.filter((action) => prefixes.includes(action.split(".")[0] ?? "")).map(
    (action) => ({ value: action, label: ACTION_LABELS[action] }),
  ),
}));

/** The filters of `GET /v1/manage/audit-log` (docs/api/manage.md#audit-log) the screen offers. */
export type AuditFilters = { action?: AuditAction; actorId?: string };

/** The filters of a query string (`?action=…&actorId=…`); unknown actions are dropped. */
export function readAuditFilters(search: string): AuditFilters {
  const params = new URLSearchParams(search);
  const filters: AuditFilters = {};
  const action = AUDIT_ACTIONS.find((known) => known === params.get("action"));
  if (action) filters.action = action;
  const actorId = params.get("actorId")?.trim();
  if (actorId) filters.actorId = actorId.slice(0, 64);
  return filters;
}
