/**
 * The secret name rule as the API validates it (`SecretNameParamSchema` in
 * src/workflows/secrets/routes.ts, docs/api/manage.md#workspace-secrets), as an HTML `pattern`
 * (the browser anchors it). test/browser/settings.spec.ts checks it against the OpenAPI document.
 */
export const SECRET_NAME_PATTERN = "[A-Z][A-Z0-9_]{0,63}";

/** What the pattern asks for, in words, for the field's description. */
export const SECRET_NAME_RULE =
  "Upper-case letters, digits and _, starting with a letter; at most 64 characters.";
