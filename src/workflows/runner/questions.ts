/**
 * The answers and closings of ask_person questions (docs/workflows.md#ask-person), which the
 * link's Conversation sends at least once: applied to the execution waiting on the question, which
 * goes on; any other (repeated, late, unknown) is ignored.
 */
import { answerQuestion, stillAsking, timeOutQuestion } from "../engine/person";
import type { WorkflowRunnerQuestions } from "./contract";
import type { LiveExecution } from "./execution-row";
import type { Executor } from "./executor";
import { actionId } from "./person-actions";
import type { Secrets } from "./workflow-source";

type Answer = Parameters<WorkflowRunnerQuestions["answerQuestion"]>[0];
type Closing = Parameters<WorkflowRunnerQuestions["closeQuestion"]>[0];

/** How long an answer waits for the execution to be saved waiting (it may still be asking; ms). */
const BUSY_WAIT_MS = 5_000;
const BUSY_POLL_MS = 50;

/** Applies answers and closings to the runner's executions. */
export class Questions {
  /** @param secretsFor the secrets of the workflow's workspace, to drive the execution on */
  constructor(
    private readonly executor: Executor,
    private readonly secretsFor: (workflowId: string) => Promise<Secrets>,
  ) {}

  /** The person's answer: the waiting execution goes on by branch `answered`. */
  answer(answer: Answer): Promise<void> {
    return this.apply(answer, (execution, now) =>
      answerQuestion(execution.definition, execution.state, answer, now),
    );
  }

  /** The link ended with the question open: the waiting execution goes on by branch `timeout`. */
  close(closing: Closing): Promise<void> {
    return this.apply(closing, (execution, now) =>
      timeOutQuestion(execution.definition, execution.state, closing.nodeKey, now),
    );
  }

  /**
   * Applies `change` to the execution when it waits on this question, and drives it on. While
   * this instance drives it (the question just asked, not saved yet) it waits for that; still busy
   * after BUSY_WAIT_MS, saved again while being read, or its question still being asked (a restart
   * cut the asking short; the alarm asks again), it throws: the Conversation's outbox sends it
   * again later, and then it applies, or is ignored once the node is past.
   */
  private async apply(
    question: { executionId: string; nodeKey: string; questionId: string },
    change: (execution: LiveExecution, now: number) => boolean,
  ): Promise<void> {
    const { executionId: id, nodeKey, questionId } = question;
    if ((await actionId("qst", { executionId: id, nodeKey })) !== questionId) return;
    const { executor } = this;
    for (let waited = 0; executor.isRunning(id); waited += BUSY_POLL_MS) {
      if (waited >= BUSY_WAIT_MS) throw new Error("The execution is busy; send it again.");
      await new Promise((resolve) => setTimeout(resolve, BUSY_POLL_MS));
    }
    const entry = executor.store.live.get(id);
    const execution = entry ? await executor.store.opened(id) : null;
    if (!execution) return; // finished, or never this runner's
    const secrets = await this.secretsFor(execution.workflowId);
    // Every save gives the entry a new wake: another one meanwhile makes this copy stale.
    if (executor.isRunning(id) || executor.store.live.get(id)?.wake !== entry?.wake) {
      throw new Error("The execution moved on meanwhile; send it again.");
    }
    if (change(execution, Date.now())) executor.resume(execution, secrets);
    // Asked before a restart, not yet saved waiting: dropped now, the answer would be lost.
    else if (stillAsking(execution.state, nodeKey)) {
      throw new Error("The question is still being asked; send it again.");
    }
  }
}
