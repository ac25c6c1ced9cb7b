export { findLinkRow } from "./link-rules";
export {
  effectiveStatus,
  eventConversation,
  launchAddresses,
  ledgerValue,
  openLinkByToken,
  toLaunch,
} from "./links";
export type { LaunchEnv } from "./rate-limit";
export {
  ConversationAnalysisSchema,
  CreatedLaunchSchema,
  CreateLaunchSchema,
  LaunchSchema,
  MAX_LAUNCH_BODY_BYTES,
} from "./schemas";
