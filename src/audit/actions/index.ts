/**
 * What the audit log records (docs/security.md#audit-log): every action a management change can
 * be, and the kinds of thing it acts on. The list route's `action` filter takes exactly these,
 * and each state-changing route of the management and operator API names its action in the
 * OpenAPI document (`x-audit-action`).
 */

/** The kinds of thing an entry's `target` names, with the id it carries. */
export const TARGET_TYPES = [
  "workspace",
  "member",
  "widget_key",
  "agent",
  "channel",
  "link",
  "secret",
  "workflow",
  "event_endpoint",
  "event_delivery",
  "erasure",
  "reseal",
  "session",
  "sign_in_link",
  "passkey",
] as const;

export type TargetType = (typeof TARGET_TYPES)[number];

/** Every action, by what it acts on. */
export const AUDIT_ACTIONS = [
  "workspace.created",
  "workspace.deleted",
  "workspace.updated",
  "reseal.started",
  "member.invited",
  "member.role_changed",
  "member.removed",
  "member.sign_in_link_created",
  "widget_key.created",
  "widget_key.revoked",
  "agent.created",
  "agent.updated",
  "agent.deleted",
  "channel.created",
  "channel.updated",
  "channel.preview_link_created",
  "secret.set",
  "secret.deleted",
  "workflow.created",
  "workflow.updated",
  "workflow.deleted",
  "workflow.started",
  "workflow.stopped",
  "workflow.replayed",
  "workflow.capture_armed",
  "workflow.test_run",
  "link.revoked",
  "link.ended",
  "event_endpoint.created",
  "event_endpoint.updated",
  "event_endpoint.deleted",
  "event_endpoint.secret_rotated",
  "event_endpoint.test_sent",
  "event_endpoint.recovered",
  "event_delivery.resent",
  "erasure.requested",
  "session.signed_in",
  "session.signed_out",
  "passkey.added",
  "passkey.removed",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who made a change: a member, the operator (id `operator`) or a widget key (its `wk_…` record). */
export type AuditActor =
  | { type: "member"; id: string }
  | { type: "operator"; id: "operator" }
  | { type: "widget_key"; id: string };

/** One entry to record; the time, the address and the actor's name are added when it is written. */
export type AuditEntry = {
  /** The workspace whose log holds it; null for the operator's own log. */
  workspaceId: string | null;
  actor: AuditActor;
  action: AuditAction;
  target: { type: TargetType; id: string };
};
