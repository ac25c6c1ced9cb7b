/** Types of scripts/local-server.mjs for the TypeScript tests that import it. */
import type { Api } from "./demo-seed.mjs";

export declare const ROOT: string;
export declare const DEV_PORT: 8787;
export declare const PREBUILT: "AGENT_EDGE_PREBUILT";

/** A running local server; `stop()` is safe to call more than once. */
export type LocalServer = {
  /** e.g. `http://127.0.0.1:40123`, no trailing slash. */
  base: string;
  port: number;
  pid: number;
  /** The temporary state's folder (for `wrangler d1 execute --persist-to`); undefined for "project". */
  persistDir: string | undefined;
  /** The migrations' output when it was not shown ("" when shown, copied or already applied). */
  migrations: string;
  stop(): Promise<void>;
  exited: Promise<number | null>;
  /** The tail of wrangler's output (empty when it was shown). */
  output(): string;
};

export declare function choosePort(wanted: number | undefined, taken?: number[]): Promise<number>;

export declare function startLocalServer(options?: {
  port?: number;
  state?: "temporary" | "project";
  vars?: Record<string, string>;
  devVars?: Record<string, string>;
  inheritOutput?: boolean;
  /** Shows what it makes of each line of `wrangler dev` (null: nothing); migrations go to `migrations`. */
  filterLine?: (line: string) => string | null;
  logLevel?: string;
  healthTimeoutMs?: number;
  migratedState?: string;
  persistDir?: string;
  prebuilt?: boolean;
}): Promise<LocalServer>;

/** A throwaway server for a CI step: fresh state, random operator token and secrets key. */
export declare function startFreshServer(
  vars?: Record<string, string>,
): Promise<{ server: LocalServer; operatorToken: string }>;

export declare function migrateState(
  dir: string,
  options?: { prebuilt?: boolean; inheritOutput?: boolean },
): Promise<void>;

export declare function fetchApi(base: string): Api;
