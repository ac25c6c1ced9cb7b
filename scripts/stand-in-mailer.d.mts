/** Types of scripts/stand-in-mailer.mjs for the TypeScript tests that import it. */
export type Mail = { to: string; subject: string; text: string; receivedAt: string };
export type StandInMailer = { url: string; messages: Mail[]; stop: () => Promise<void> };

/** Starts the stand-in mailer on a free port of 127.0.0.1. */
export declare function startStandInMailer(options?: {
  print?: (line: string) => void;
}): Promise<StandInMailer>;
