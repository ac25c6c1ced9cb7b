/**
 * What the Conversation accepts from a page (docs/limits.md#chat): session openings, messages and
 * retries, each rate limited on stored times, so the windows hold across hibernation.
 */
import { SlidingWindowLog } from "../../platform/sliding-window";
import { CHAT_LIMITS, type SocketErrorCode } from "../protocol";

/** Why a frame is refused: the `error` frame's code, message and details. */
export type Refusal = {
  code: SocketErrorCode;
  message: string;
  details?: Record<string, string | number>[];
};

const MINUTE_MS = 60_000;

/** `retry` frames that ask the agent again, per conversation in any 60 s (docs/limits.md#chat). */
export const RETRIES_PER_MINUTE = 10;

/**
 * The person's message as it will be kept, or why it is refused.
 * @param recent epoch ms of the person's messages in the last minute
 */
export function admitMessage(
  raw: string,
  recent: number[],
  now: number,
): { text: string } | Refusal {
  const text = raw.trim();
  if (text.length === 0) return { code: "invalid_message", message: "The message is empty." };
  if (text.length > CHAT_LIMITS.maxMessageChars) {
    return {
      code: "message_too_long",
      message: `A message has at most ${CHAT_LIMITS.maxMessageChars} characters.`,
    };
  }
  const refused = overLimit(recent, now, CHAT_LIMITS.messagesPerMinute, "messages");
  return refused ?? { text };
}

/** Null when one more opening fits, else seconds to wait; `recent`: last minute's openings (ms). */
export function admitOpen(recent: number[], now: number): number | null {
  const rate = new SlidingWindowLog(recent).attempt(
    now,
    CHAT_LIMITS.sessionOpensPerMinute,
    MINUTE_MS,
  );
  return rate.allowed ? null : rate.retryAfterSeconds;
}

/** Null when one more retry fits, else the refusal; `recent`: last minute's retries (epoch ms). */
export function admitRetry(recent: number[], now: number): Refusal | null {
  return overLimit(recent, now, RETRIES_PER_MINUTE, "retries");
}

function overLimit(recent: number[], now: number, limit: number, what: string): Refusal | null {
  const rate = new SlidingWindowLog(recent).attempt(now, limit, MINUTE_MS);
  if (rate.allowed) return null;
  return {
    code: "rate_limited",
    message: `At most ${limit} ${what} per minute.`,
    details: [{ retryAfterSeconds: rate.retryAfterSeconds }],
  };
}
