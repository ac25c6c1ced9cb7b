/**
 * Runs a WorkflowRunner's executions with the pure engine (docs/api/webhooks.md#durability): state
 * saved after every synchronous stretch, confirmed with a wake time and an alarm before a fetch or a
 * wait, so the alarm resumes it after a restart. Held callers wait in `HeldCallers`.
 */
import type { JsonValue } from "../../platform/json";
import { log } from "../../platform/log";
import type { OutboundPolicy } from "../../platform/outbound";
import { advance, completeWait } from "../engine/engine";
import type { ConversationEventNode, WebhookNode, WorkflowConcurrency } from "../nodes/types";
import { finishedOutcome, respondedOutcome } from "./answers";
import type { RunnerConfig } from "./config";
import type { Settled } from "./contract";
import { type LiveExecution, newExecution } from "./execution-row";
import type { ExecutionStore } from "./execution-store";
import { flowOf, ThrottleLog } from "./flow-control";
import { HeldCallers, type HeldOutcome } from "./held-callers";
import type { Act } from "./person-actions";
import { Slots } from "./slots";
import { prepareAct, shownRedaction, takeStep, wakeOf } from "./steps";
import type { Secrets } from "./workflow-source";

/** Runs executions with the pure engine, saving after every stretch and holding their callers. */
export class Executor {
  /** Executions this instance is driving right now; the alarm leaves them alone. */
  private readonly inFlight = new Set<string>();
  private readonly settledUnsaved = new Map<string, Settled>();
  private readonly held = new HeldCallers<Settled>();
  private readonly slots: Slots;
  private readonly throttles: ThrottleLog;
  private alarmAt: number | null = null;

  /**
   * @param secretsFor the secrets of the workflow's workspace, for executions it continues
   * @param limitFor the workflow's current concurrency, for a queue found when the object starts
   * @param policy where http_request nodes may send (the Worker's vars; a deploy restarts objects)
   * @param act performs a person node's action (docs/workflows.md)
   */
  constructor(
    private readonly ctx: DurableObjectState,
    readonly store: ExecutionStore,
    private readonly secretsFor: (workflowId: string) => Promise<Secrets>,
    private readonly limitFor: (workflowId: string) => Promise<WorkflowConcurrency | undefined>,
    private readonly policy: OutboundPolicy,
    private readonly act: Act,
  ) {
    this.throttles = new ThrottleLog(ctx.storage);
    this.slots = new Slots(this.throttles);
  }

  /** Reads the alarm, running executions and queue once, at start; queued ones that fit start. */
  async load(): Promise<void> {
    this.alarmAt = await this.ctx.storage.getAlarm();
    await this.store.load();
    const { live } = this.store;
    if (live.interruptFetches(Date.now()) > 0) await this.schedule(Date.now());
    await this.throttles.load();
    const waiting = live.queued();
    const head = waiting[0] === undefined ? null : await this.store.opened(waiting[0].id);
    const limit = head ? await this.limitFor(head.workflowId) : undefined;
    this.slots.load(live.active(), waiting, limit);
    this.startQueued(this.slots.release(null));
  }

  /** Whether this instance is driving the execution now. */
  isRunning(executionId: string): boolean {
    return this.inFlight.has(executionId);
  }

  /** Holds a lastNode or responseNode caller until it is answered or `timeoutMs` passes. */
  waitFor(executionId: string, timeoutMs: number): Promise<HeldOutcome<Settled>> {
    return this.held.wait(executionId, timeoutMs);
  }

  /**
   * Starts and drives an execution from `trigger`; settles once recorded (confirmed on disk, unless
   * it finished in its first stretch). Beyond the `concurrency` limit it is recorded as queued
   * (docs/webhooks.md#concurrency); with the queue full, nothing is recorded.
   * @param options.replayOf the execution it replays (docs/webhooks.md#replay)
   * @param options.runOn another definition to run (a replay's original), with its version
   * @param options.mode `test` for a builder's test run (docs/webhooks.md#test-runs)
   */
  start(
    config: RunnerConfig,
    trigger: WebhookNode | ConversationEventNode,
    executionId: string,
    output: JsonValue,
    secrets: Secrets,
    // With `createdAt` when it was created, if not now: the time its id carries.
    options: Parameters<typeof newExecution>[4] = {},
  ): Promise<"started" | "queued" | "queue_full"> {
    const now = Date.now();
    this.slots.setLimit(config.definition.concurrency);
    const flow = flowOf(config.definition.concurrency, trigger, output, options.mode);
    const admission = this.slots.admit(executionId, flow, now);
    if (admission === "full") return Promise.resolve("queue_full");
    const queued = admission === "queue";
    const admitted = { now, queued, flow };
    const execution = newExecution(config, trigger, executionId, output, options, admitted);
    if (queued) {
      return this.store.save(execution, secrets.redact, null, true).then(
        () => {
          this.wakeForThrottle();
          return "queued" as const;
        },
        (error: unknown) => {
          this.slots.drop(executionId);
          throw error;
        },
      );
    }
    const recorded = Promise.withResolvers<"started">();
    const onRecorded = (error?: unknown) =>
      error === undefined ? recorded.resolve("started") : recorded.reject(error);
    this.ctx.waitUntil(this.drive(execution, secrets, onRecorded).catch(logDriveError));
    return recorded.promise;
  }

  /** Has the alarm fire by `at` (epoch ms), for work of the runner's own (bulk replays). */
  wakeAt(at: number): Promise<void> {
    return this.schedule(at);
  }

  /** Whether a new execution from `trigger` would be refused now, its queue being full. */
  queueFull(config: RunnerConfig, trigger: WebhookNode, output: JsonValue): boolean {
    this.slots.setLimit(config.definition.concurrency);
    return this.slots.decide(flowOf(config.definition.concurrency, trigger, output)) === "full";
  }

  /** The workflow's concurrency changed (or is first known): queued executions that fit start. */
  limitChanged(limit: WorkflowConcurrency | undefined): void {
    this.slots.setLimit(limit);
    this.startQueued(this.slots.release(null));
  }

  /**
   * Starts queued executions whose turn came (slots already held). One that cannot start is
   * recorded as failed and its slot passed on: a stuck head must not stall the queue.
   */
  private startQueued(ids: string[]): void {
    this.wakeForThrottle();
    for (const id of ids) {
      const run = async () => {
        const execution = await this.store.opened(id);
        if (!execution) throw new Error("The queued execution's record is gone.");
        execution.startedAt = Date.now();
        const secrets = await this.secretsFor(execution.workflowId);
        driving = true;
        await this.drive(execution, secrets);
      };
      let driving = false;
      const failed = async (error: unknown) => {
        logDriveError(error);
        if (driving) return; // `drive` frees the slot of an execution it could not go on with
        await this.store.failUnstarted(id).catch(logDriveError);
        this.held.settle(id, { kind: "failed", executionId: id, nodeKey: null });
        this.startQueued(this.slots.release(id));
      };
      this.ctx.waitUntil(run().catch(failed));
    }
  }

  /**
   * An erased execution (docs/security.md#erasure) runs no further: a driven one stops before its
   * next step; another lets go of its slot, queue place and held callers (failed) now.
   */
  forgetErased(id: string): void {
    if (!this.inFlight.has(id)) this.letGo(id);
  }

  private letGo(id: string): void {
    this.held.settle(id, { kind: "failed", executionId: id, nodeKey: null });
    this.slots.drop(id);
    this.startQueued(this.slots.release(id));
  }

  /** Continues every execution whose wait ended or whose fetch was interrupted. */
  async runDue(): Promise<void> {
    this.alarmAt = null;
    const now = Date.now();
    // Each save gives a new wake: one driven or saved meanwhile (questions.ts) is stale, left alone.
    const { live } = this.store;
    const wakes = live.wakes();
    const stale = (id: string) => this.inFlight.has(id) || live.get(id)?.wake !== wakes.get(id);
    const due = await this.store.due(now);
    if (due.length > 0) {
      const secrets = await this.secretsFor(due[0]?.workflowId ?? "");
      for (const execution of due) {
        const { definition, state } = execution;
        if (stale(execution.id)) continue;
        // A wait that has not ended yet (a clock skew or an early alarm) stays parked.
        if (state.waitUntil !== null && !completeWait(definition, state, now)) continue;
        this.ctx.waitUntil(this.drive(execution, secrets).catch(logDriveError));
      }
    }
    // A throttle's period may have passed (docs/webhooks.md#throttle).
    this.startQueued(this.slots.release(null));
    const next = this.store.live.nextWake();
    if (next !== null) await this.schedule(Math.max(next, Date.now() + 1));
  }

  /** Drives an execution the caller loaded and changed (questions.ts); false while driven already. */
  resume(execution: LiveExecution, secrets: Secrets): boolean {
    if (this.inFlight.has(execution.id)) return false;
    this.ctx.waitUntil(this.drive(execution, secrets).catch(logDriveError));
    return true;
  }

  /** Has the alarm fire when a throttle holding back a queued execution has room again. */
  private wakeForThrottle(): void {
    const at = this.slots.nextWake();
    if (at !== null) this.schedule(at).catch(logDriveError);
  }

  /**
   * Runs the execution until it finishes or parks on a wait; a fetch starts only once the state
   * leading to it is durable.
   * @param onRecorded called once, after the first save, or with the error that prevented it
   */
  private async drive(
    execution: LiveExecution,
    secrets: Secrets,
    onRecorded?: (error?: unknown) => void,
  ): Promise<void> {
    this.inFlight.add(execution.id);
    let recorded = onRecorded;
    try {
      for (;;) {
        if (this.store.erased.has(execution.id)) return this.letGo(execution.id);
        const step = advance(execution.definition, execution.state, secrets.values, Date.now());
        if (step.kind === "finished") {
          // A finished record is written unconfirmed: nothing is gained by holding the reply.
          const saved = this.store.save(execution, secrets.redact, null);
          recorded?.();
          this.settle(execution, secrets);
          this.startQueued(this.slots.release(execution.id));
          await saved;
          return;
        }
        if (step.kind === "act") prepareAct(execution.state, step);
        const wake = wakeOf(step, Date.now());
        await this.store.save(execution, secrets.redact, wake);
        recorded?.();
        recorded = undefined;
        this.answer(execution, secrets);
        await this.schedule(wake.at);
        if (step.kind === "wait") return;
        await takeStep(execution, step, this.policy, this.act);
      }
    } catch (error) {
      recorded?.(error);
      this.startQueued(this.slots.release(execution.id));
      throw error;
    } finally {
      this.inFlight.delete(execution.id);
      this.settledUnsaved.delete(execution.id);
    }
  }

  /** Answers held responseNode callers once their respond node is saved (docs/webhooks.md#respond-node). */
  private answer(execution: LiveExecution, secrets: Secrets): void {
    if (!this.held.has(execution.id)) return;
    const redact = shownRedaction(secrets.redact, execution.state);
    const responded = respondedOutcome(execution.id, execution.state.runs, redact);
    if (responded) this.held.settle(execution.id, responded);
  }

  private settle(execution: LiveExecution, secrets: Secrets): void {
    const redact = shownRedaction(secrets.redact, execution.state);
    const outcome = finishedOutcome(execution.id, execution.state, redact);
    // Until its record is saved, a caller that comes later still learns how it ended.
    this.settledUnsaved.set(execution.id, outcome);
    if (this.held.has(execution.id)) this.held.settle(execution.id, outcome);
  }

  /** How an execution that finished ended, while its record is still being saved; else undefined. */
  settledOutcome(executionId: string): Settled | undefined {
    return this.settledUnsaved.get(executionId);
  }

  private async schedule(at: number): Promise<void> {
    if (this.alarmAt !== null && this.alarmAt <= at) return;
    this.alarmAt = at;
    await this.ctx.storage.setAlarm(at);
  }
}

/** A runner bug, not a node failure (those are recorded); logged once, without node data. */
function logDriveError(error: unknown): void {
  log("error", "execution_drive_failed", { error });
}
