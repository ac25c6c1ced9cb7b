export { isFromBrowser, refuseBrowsers } from "./browser-refusal";
export type { MemberPrincipal, WidgetKeyPrincipal } from "./credentials";
export { MEMBER_TOKEN_PREFIX, WIDGET_KEY_PREFIX } from "./credentials";
export type { MemberEnv, WidgetKeyEnv } from "./middleware";
export {
  acceptWidgetKey,
  requireOperator,
  requireWidgetKey,
  requireWriter,
  writerWithJson,
} from "./middleware";
export { changeRoute, createdRoute, removalRoute } from "./removal-route";
export { authenticateSession, createSignInLink, SIGN_IN } from "./sessions";
