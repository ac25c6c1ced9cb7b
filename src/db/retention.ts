/** How long a workspace keeps what it accumulates (docs/security.md#retention), enforced daily. */

/** Days each kind of data is kept (1 to 3,650). */
export type Retention = {
  /** A conversation's transcript, from the moment it ended. */
  conversationDays: number;
  /** A finished execution's record, from its start. */
  executionDays: number;
  /** A webhook call's request log entry, from when it arrived. */
  requestLogDays: number;
  /** A lifecycle event, its deliveries and their attempts, from the event. */
  eventDays: number;
};

/** What a workspace keeps when it sets nothing (docs/security.md#retention). */
export const RETENTION_DEFAULTS: Retention = {
  conversationDays: 365,
  executionDays: 90,
  requestLogDays: 7,
  eventDays: 30,
};

export const MAX_RETENTION_DAYS = 3_650;
export const DAY_MS = 86_400_000;

/** The workspace's retention: what it set, the defaults for the rest. */
export function retentionOf(stored: Partial<Retention> | null | undefined): Retention {
  return { ...RETENTION_DEFAULTS, ...(stored ?? {}) };
}
