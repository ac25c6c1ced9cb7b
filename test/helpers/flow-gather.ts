/**
 * Helpers for debounce and batch tests (docs/webhooks.md#debounce, docs/webhooks.md#batch): the
 * runner's alarm fired at a chosen time, restarts, the request log's outcomes and trigger outputs.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { vi } from "vitest";
import { call, expectJson, type Workspace } from "./api";
import { type ExecutionView, execution, hook } from "./workflows";

export const runner = (workflowId: string) =>
  env.WORKFLOW_RUNNER.get(env.WORKFLOW_RUNNER.idFromName(workflowId));

/** Runs `work` with the clock (Date only) at `at` epoch ms, in the test and in the runner. */
export async function at<T>(time: number, work: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(time);
  try {
    return await work();
  } finally {
    vi.useRealTimers();
  }
}

/** Fires the runner's alarm with the clock at `time`; whether one was set. */
export const alarmAt = (workflowId: string, time: number) =>
  at(time, () => runDurableObjectAlarm(runner(workflowId)));

/** Restarts the runner the hard way (a crash, a deploy): only what is stored survives. */
export async function restart(workflowId: string): Promise<void> {
  await runInDurableObject(runner(workflowId), (_instance, state) =>
    state.abort("test restart"),
  ).catch(() => undefined);
}

/** Calls a webhook URL with a JSON body; its status, execution id and `x-debounced`. */
export async function send(url: string, body: object, headers: Record<string, string> = {}) {
  const answer = await hook(url, { body, headers });
  const { executionId } = await expectJson<{ executionId: string }>(answer, 200);
  return {
    executionId,
    debounced: answer.headers.get("x-debounced"),
    deduplicated: answer.headers.get("x-deduplicated"),
  };
}

/** The request log's outcomes, oldest first. */
export async function outcomes(ws: Workspace, workflowId: string) {
  const log = await expectJson<{ data: { outcome: string; executionId: string | null }[] }>(
    await call("GET", `/v1/manage/workflows/${workflowId}/requests`, { token: ws.ownerToken }),
    200,
  );
  return log.data.map((entry) => [entry.outcome, entry.executionId]).reverse();
}

/** The ids the executions list shows. */
export async function listedIds(ws: Workspace, workflowId: string): Promise<string[]> {
  const page = await expectJson<{ data: { id: string }[] }>(
    await call("GET", `/v1/manage/workflows/${workflowId}/executions`, { token: ws.ownerToken }),
    200,
  );
  return page.data.map((record) => record.id);
}

/** The execution once it succeeded, and its webhook node's output (the trigger's data). */
export async function succeeded(ws: Workspace, workflowId: string, executionId: string) {
  const record = await vi.waitFor(
    async () => {
      const found = await execution(ws, workflowId, executionId);
      if (found.status !== "succeeded") throw new Error(`still ${found.status}`);
      return found;
    },
    { timeout: 10_000, interval: 20 },
  );
  return { record, output: triggerOutput(record) };
}

export function triggerOutput(record: ExecutionView): unknown {
  return record.nodes.find((node) => node.key === "webhook_1")?.output;
}
