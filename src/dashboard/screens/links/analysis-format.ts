/** The link page's analysis in words and when to wait for it (docs/dashboard.md#screens). */

/** How long after the end the page keeps reading a link again for its analysis (its 4 tries). */
export const ANALYSIS_WAIT_MS = 15 * 60_000;

/** True while an analysis may still come: the agent asks for one and the end is recent. */
export function awaitingAnalysis(
  conversation: { status: string; endedAt: string | null; analysis?: unknown } | null | undefined,
  agentAnalyses: boolean,
  now = Date.now(),
): boolean {
  if (!agentAnalyses || conversation?.status !== "ended" || conversation.analysis) return false;
  const endedAt = Date.parse(conversation.endedAt ?? "");
  return Number.isFinite(endedAt) && now - endedAt < ANALYSIS_WAIT_MS;
}

/** A value as the table shows it: text, number, yes/no; null as "Unknown". */
export function analysisValue(value: string | number | boolean | null): string {
  if (value === null) return "Unknown";
  if (typeof value === "boolean") return value ? "Yes" : "No";
  return String(value);
}
