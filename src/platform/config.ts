/**
 * The Worker's settings, checked once per isolate (docs/operations.md#configuration). Bindings and
 * the vars wrangler.toml declares are typed by `wrangler types` (worker-configuration.d.ts); the
 * secrets and optional vars it cannot name are described here once, and typed from this schema
 * (`Settings`, joined to the environment in `env.ts`). A wrong value answers every request with
 * 500 `misconfigured` naming the variable, never its value, and writes one log line, instead of
 * failing somewhere later.
 */
import { z } from "@hono/zod-openapi";
import { base64ToBytes } from "./crypto";
import { log } from "./log";
import { once } from "./once";

const KEY_RULE = "must be base64 of 32 random bytes";
const TOKEN_RULE = "must be a random string of at least 32 characters";

const isKey = (text: string) => {
  try {
    return base64ToBytes(text.trim()).byteLength === 32;
  } catch {
    return false;
  }
};
const entries = (text: string) =>
  text
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
/** An absolute http(s) URL, or "" for unset (wrangler vars cannot be removed per environment). */
const urlOrUnset = (what: string) =>
  z.union([z.literal(""), z.url({ protocol: /^https?$/, error: `must be ${what}` })]).optional();
const positiveInt = z
  .string()
  .regex(/^[1-9]\d{0,8}$/, "must be a whole number from 1 to 999999999")
  .optional();

/** What wrangler.toml does not bind: the secrets and the optional vars. */
const unboundSchema = () =>
  z.object({
    /** Bearer token of the operator API (docs/api/manage.md#operator). */
    OPERATOR_TOKEN: z.string({ error: `is not set; it ${TOKEN_RULE}` }).min(32, TOKEN_RULE),
    /** Comma-separated older operator tokens still accepted during a rotation. */
    OPERATOR_TOKEN_PREVIOUS: z.string().optional(),
    /** base64 of 32 random bytes; the AES-GCM key that seals (docs/security.md). */
    SECRETS_KEY: z.string({ error: `is not set; it ${KEY_RULE}` }).refine(isKey, KEY_RULE),
    /** Comma-separated older keys that still open what they sealed (docs/security.md#rotating-keys). */
    SECRETS_KEY_PREVIOUS: z
      .string()
      .refine((text) => entries(text).every(isKey), `each comma-separated entry ${KEY_RULE}`)
      .optional(),
    /** Public origin of the launch API and chat page; the request's origin when unset. */
    BASE_URL: urlOrUnset("an http(s) URL such as https://launch.example.com"),
    /** Public origin of webhook URLs and the dashboard; the request's origin when unset. */
    APP_URL: urlOrUnset("an http(s) URL such as https://app.example.com"),
    /**
     * An OpenAI-compatible chat-completions endpoint (`…/v1`), its key and model; when all three
     * are set, agents reply through it, streamed (docs/api/conversations.md#replies).
     */
    LLM_BASE_URL: urlOrUnset("an http(s) URL such as https://api.openai.com/v1"),
    LLM_API_KEY: z.string().optional(),
    LLM_MODEL: z.string().optional(),
    /**
     * "true" lets outbound requests (http_request nodes, event deliveries) go to private and local
     * hosts and event endpoints be plain http: local development only
     * (docs/security.md#outbound-requests).
     */
    ALLOW_PRIVATE_OUTBOUND: z
      .string()
      .regex(/^(true|false)?$/, 'must be "true" or "false"')
      .optional(),
  });

/** The vars wrangler.toml declares (and so types): their rules only. */
const boundSchema = () =>
  z.object({
    /** Accepted launch API calls per widget key in any 60 s window (docs/limits.md). */
    RATE_LIMIT_PER_MINUTE: positiveInt,
    /** Pending, unexpired links per workspace (docs/limits.md). */
    MAX_PENDING_LINKS: positiveInt,
  });

/** The secrets and optional vars of the Worker, as its environment holds them. */
export type Settings = z.input<ReturnType<typeof unboundSchema>>;

const schema = once(() => unboundSchema().extend(boundSchema().shape));
/** Each environment object checked, and what is wrong with it (null: nothing). */
const checked = new WeakMap<object, string | null>();

/**
 * What is wrong with the Worker's settings, or null: one sentence per variable, naming it and the
 * rule it breaks, never its value. Checked once per environment object (once per isolate), and
 * logged once when wrong.
 * @param env the Worker's environment
 */
export function misconfiguration(env: object): string | null {
  const known = checked.get(env);
  if (known !== undefined) return known;
  const result = schema().safeParse(env);
  const problem = result.success
    ? null
    : result.error.issues.map((issue) => `${String(issue.path[0])}: ${issue.message}.`).join(" ");
  checked.set(env, problem);
  if (problem) log("error", "misconfigured", { problem });
  return problem;
}
