// Opening (or re-opening) the chat session of a link: `POST /v1/chat/sessions` with the token, and
// every answer mapped onto what the page does next (docs/api/conversations.md). The answer's shape
// is read with the chat protocol's schemas, the ones the server builds its frames from.
import * as z from "zod/mini";
import { WireMessageSchema } from "../conversations/protocol";

/** The page states; tests and styles read them from `data-state`. */
export type State =
  | "loading"
  | "open"
  | "reconnecting"
  | "ended"
  | "revoked"
  | "expired"
  | "invalid"
  | "error";

const SessionSchema = z.object({
  status: z.enum(["in-progress", "ended"]),
  agent: z.object({ name: z.string() }),
  messages: z.array(WireMessageSchema),
  socketUrl: z.optional(z.string()),
  limits: z.object({ maxMessageChars: z.number() }),
  rating: z.optional(z.object({ enabled: z.boolean(), score: z.nullable(z.number()) })),
});
/** The parts of an opened session the page uses. */
export type Session = z.infer<typeof SessionSchema>;

const ErrorAnswerSchema = z.object({
  error: z.object({
    code: z.string(),
    details: z.optional(z.array(z.record(z.string(), z.unknown()))),
  }),
});

/** What opening the session led to. */
export type Opening =
  | { kind: "session"; session: Session }
  | { kind: "refused"; state: State }
  | { kind: "retryable"; retryAfterMs: number };

function retryAfterMs(response: Response): number {
  const seconds = Number(response.headers.get("retry-after"));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0;
}

/** What opens the session: the link's token, and the channel of the widget's frame when in one. */
export type Opener = { token: string; channelId: string | undefined };

/** POSTs the token; a session, a final refusal (with the state to show) or "try again later". */
export async function openSession(opener: Opener): Promise<Opening> {
  let response: Response;
  try {
    response = await fetch("/v1/chat/sessions", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(opener),
      referrerPolicy: "no-referrer",
      credentials: "omit",
      cache: "no-store",
    });
  } catch {
    return { kind: "retryable", retryAfterMs: 0 };
  }
  const body: unknown = await response.json().catch(() => null);
  const session = SessionSchema.safeParse(body);
  if (response.ok && session.success) return { kind: "session", session: session.data };
  if (response.ok || response.status === 429 || response.status >= 500) {
    return { kind: "retryable", retryAfterMs: retryAfterMs(response) };
  }
  const error = ErrorAnswerSchema.safeParse(body);
  const code = error.success ? error.data.error.code : undefined;
  if (code === "link_unavailable") {
    const reason = error.success ? error.data.error.details?.[0]?.reason : undefined;
    if (reason === "expired") return { kind: "refused", state: "expired" };
    if (reason === "revoked") return { kind: "refused", state: "revoked" };
  }
  // A 400 means the fragment held something that is not a token, which is an invalid link too.
  if (code === "not_found" || response.status === 404 || response.status === 400) {
    return { kind: "refused", state: "invalid" };
  }
  return { kind: "refused", state: "error" };
}
