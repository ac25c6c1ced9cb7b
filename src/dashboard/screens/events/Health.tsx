/**
 * An event endpoint's status and health (docs/operations.md#incidents): a badge each, and while it
 * is failing, since when, the last error and how many deliveries failed since.
 */
import type { Schemas } from "../../api";
import { Badge } from "../../ui/data";
import { When } from "../../ui/feedback";

type Health = Schemas["EventEndpoint"]["health"];

/** Enabled or Disabled. */
export function StatusBadge({ status }: { status: Schemas["EventEndpoint"]["status"] }) {
  return (
    <Badge tone={status === "enabled" ? "ok" : "off"}>
      {status === "enabled" ? "Enabled" : "Disabled"}
    </Badge>
  );
}

/** Healthy or Failing. */
export function HealthBadge({ health }: { health: Health }) {
  return health.status === "failing" ? (
    <Badge tone="bad">Failing</Badge>
  ) : (
    <Badge tone="ok">Healthy</Badge>
  );
}

/** The badge, and for a failing endpoint what the incident is. */
export function HealthNote({ health }: { health: Health }) {
  if (health.status !== "failing") return <HealthBadge health={health} />;
  const failed = health.failedDeliveries;
  return (
    <span className="health-note">
      <HealthBadge health={health} /> since <When iso={health.since} />
      {health.lastError ? (
        <>
          ; last error <code>{health.lastError}</code>
        </>
      ) : null}
      ; {failed} {failed === 1 ? "delivery" : "deliveries"} failed since
    </span>
  );
}
