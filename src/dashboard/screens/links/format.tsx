/**
 * How the Links screens show a link (docs/dashboard.md#screens): its status as a labelled badge,
 * the person's name, and the list's filters as they travel in the address's query string.
 */
import type { Schemas } from "../../api";

export type LinkStatus = Schemas["LinkStatus"];

/** Every status, in the order a person thinks of a link's life, with its label. */
export const STATUSES: { value: LinkStatus; label: string }[] = [
  { value: "pending", label: "Pending" },
  { value: "active", label: "Active" },
  { value: "ended", label: "Ended" },
  { value: "expired", label: "Expired" },
  { value: "revoked", label: "Revoked" },
];

/** A status as a badge; its text carries the meaning, the colour only repeats it. */
export function StatusBadge({ status }: { status: LinkStatus }) {
  const label = STATUSES.find((item) => item.value === status)?.label ?? status;
  return <span className={`status status-${status}`}>{label}</span>;
}

/** The person's name as the screens show it (links may be created without one). */
export function personName(participant: Schemas["Launch"]["participant"]): string {
  return participant.name ?? "Unnamed person";
}

/**
 * The search of `GET /v1/manage/links` (docs/api/manage.md#links) the dashboard offers;
 * `previews: "shown"` lists the dashboard's own preview links too, left out otherwise.
 */
export type LinkFilters = {
  externalId?: string;
  status?: LinkStatus;
  flowId?: string;
  previews?: "shown";
};

/** The API's query for `filters`: preview links are left out unless they are asked for. */
export function linkQuery({ previews, ...filters }: LinkFilters) {
  return { ...filters, ...(previews ? {} : { preview: "false" as const }) };
}

/**
 * The filters of a query string (`?externalId=…&status=…&flowId=…&previews=shown`); unknown
 * values are dropped.
 */
export function readFilters(search: string): LinkFilters {
  const params = new URLSearchParams(search);
  const filters: LinkFilters = {};
  const externalId = params.get("externalId")?.trim();
  if (externalId) filters.externalId = externalId.slice(0, 255);
  const status = STATUSES.find((item) => item.value === params.get("status"))?.value;
  if (status) filters.status = status;
  const flowId = params.get("flowId");
  if (flowId) filters.flowId = flowId.slice(0, 64);
  if (params.get("previews") === "shown") filters.previews = "shown";
  return filters;
}
