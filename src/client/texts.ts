// The chat page's words (docs/chat.md): states, problems and limits, as the person reads them.

/** What the page says, in one place. */
export const TEXT = {
  opening: "Opening your conversation…",
  incomplete: "This chat link is incomplete. Open the full link you were sent.",
  ended: "This conversation has ended.",
  expired: "This link has expired.",
  revoked: "This link has been revoked.",
  invalid: "This chat link is not valid.",
  failed: "Something went wrong. Please try again in a moment.",
  reconnecting: "Reconnecting…",
  typeAnswer: "Type your answer below.",
  questionClosed: "Question closed.",
  replyFailed: (name: string) => `${name} could not reply. Please try again.`,
  replyLate: (name: string) => `${name} is taking too long to reply. Please try again.`,
  tooLong: (max: number) => `Your message is too long. Keep it to ${max} characters or fewer.`,
  tooFast: (seconds: number | null) =>
    seconds === null
      ? "You are sending messages too fast. Try again in a moment."
      : `You are sending messages too fast. Try again in ${seconds} s.`,
};

/** What each final state says. */
export const FINAL_TEXT: Record<"ended" | "revoked" | "expired" | "invalid" | "error", string> = {
  ended: TEXT.ended,
  revoked: TEXT.revoked,
  expired: TEXT.expired,
  invalid: TEXT.invalid,
  error: TEXT.failed,
};
