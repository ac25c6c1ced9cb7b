/** Analysis of ended conversations (docs/api/conversations.md#analysis). */
export { ANALYSES_QUEUE, type AnalysisJob, requestAnalysis } from "./request";
export {
  ANALYSIS_DELIVERIES,
  ANALYSIS_RETRY_SECONDS,
  type AnalysisOutcome,
  consumeAnalyses,
  MAX_ANALYSIS_TRIES,
  runAnalysis,
} from "./runner";
export { failedAnalysis, validateAnalysis } from "./validate";
