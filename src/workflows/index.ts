export { resolveValue, valueAsText } from "./engine/template";
export type { CallCounts, MetricCounts } from "./runner/metrics-counts";
export { addCounts, emptyCounts } from "./runner/metrics-counts";
export type { RequestOutcome } from "./runner/request-log-entry";
export { REQUEST_OUTCOMES } from "./runner/request-log-entry";
export { resealSecrets } from "./secrets/secrets";
