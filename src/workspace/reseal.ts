/**
 * The reseal job (docs/security.md#rotating-keys): every value stored sealed is sealed again under
 * the current `SECRETS_KEY`, so the old key can be removed. Its phases, each a page at a time:
 * workspace secrets and event endpoint secrets in D1, each workspace ledger's stored idempotent
 * answers, and each workflow runner's records (running states and kept inputs). Every step
 * skips what is already under the current key, so a phase repeated after a restart is harmless.
 */
import { asc, gt } from "drizzle-orm";
import { database } from "../db/database";
import { workspaces } from "../db/schema";
import { resealEndpointSecrets } from "../events";
import { linkLedger } from "../launch/ledger/client";
import { keyring } from "../platform/secret-box";
import { resealSecrets } from "../workflows";
import type { JobPhase } from "./jobs/phase";
import { walkRunners } from "./jobs/runner-pages";

const PAGE = 100;
const RECORDS_PAGE = 200;

/** Workspace secrets; the cursor is `<workspace id>\n<name>`. */
const secretsPhase: JobPhase = async (env, cursor) => {
  const [workspaceId = "", name = ""] = cursor?.split("\n") ?? [];
  const after = cursor ? { workspaceId, name } : null;
  const page = await resealSecrets(database(env), await keyring(env), after, PAGE);
  const next = page.next ? `${page.next.workspaceId}\n${page.next.name}` : null;
  return { cursor: next, counts: { secrets: page.resealed } };
};

/** Event endpoints' signing secrets; the cursor is the last endpoint id. */
const endpointsPhase: JobPhase = async (env, cursor) => {
  const page = await resealEndpointSecrets(database(env), await keyring(env), cursor, PAGE);
  return { cursor: page.next, counts: { endpointSecrets: page.resealed } };
};

/** Each workspace's ledger; the cursor is the last workspace id. */
const ledgersPhase: JobPhase = async (env, cursor) => {
  const rows = await database(env)
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(cursor ? gt(workspaces.id, cursor) : undefined)
    .orderBy(asc(workspaces.id))
    .limit(20);
  const counts = await Promise.all(
    rows.map((row) => linkLedger(env, row.id).resealAnswers(row.id)),
  );
  const resealed = counts.reduce((sum, n) => sum + n, 0);
  const next = rows.length < 20 ? null : (rows.at(-1)?.id ?? null);
  return { cursor: next, counts: { idempotentAnswers: resealed } };
};

/** Each runner of each workflow, a page of its records per step. */
const runnersPhase: JobPhase = (env, cursor) =>
  walkRunners(env, cursor, undefined, async (runner, after) => {
    const page = await runner.resealRecords(after, RECORDS_PAGE);
    return {
      next: page.next,
      counts: { executions: page.executions, keptInputs: page.keptInputs },
    };
  });

/** The reseal job's phases, in order. */
export const RESEAL_PHASES: JobPhase[] = [secretsPhase, endpointsPhase, ledgersPhase, runnersPhase];
