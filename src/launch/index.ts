export { findLinkRow } from "./link-rules";
export { effectiveStatus, launchAddresses, ledgerValue, openLinkByToken } from "./links";
export type { LaunchEnv } from "./rate-limit";
export {
  CreatedLaunchSchema,
  CreateLaunchSchema,
  LaunchSchema,
  MAX_LAUNCH_BODY_BYTES,
} from "./schemas";
