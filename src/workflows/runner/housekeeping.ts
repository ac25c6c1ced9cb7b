/**
 * A runner's daily retention sweep of executions and request log (docs/security.md#retention), on
 * its alarm, so an idle runner forgets on time too.
 */
import { DAY_MS } from "../../db/retention";
import type { Row } from "./execution-row";
import { deleteFinished } from "./record-housekeeping";
import type { RequestLog } from "./request-log";
import type { WorkflowSource } from "./workflow-source";

const SWEPT = "h/swept";
/** Pages of finished records one sweep deletes at most; the next day's goes on. */
const MAX_PAGES = 8;

/** The runner's daily retention sweep. */
export class Housekeeping {
  /** When the last sweep ran (epoch ms), once read. */
  private sweptAt: number | undefined;

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly source: WorkflowSource,
    private readonly requests: RequestLog,
    private readonly alarm: { wakeAt(at: number): Promise<void> },
  ) {}

  /** Makes sure the alarm fires for the next sweep: a day after the last, or from now. */
  async arm(now = Date.now()): Promise<void> {
    this.sweptAt ??= (await this.storage.get<number>(SWEPT)) ?? now;
    await this.storage.put(SWEPT, this.sweptAt);
    await this.alarm.wakeAt(this.sweptAt + DAY_MS);
  }

  /** Sweeps when a day has passed since the last sweep, then sets the alarm for the next one. */
  async run(now = Date.now()): Promise<void> {
    this.sweptAt ??= await this.storage.get<number>(SWEPT);
    if (this.sweptAt === undefined) return;
    // Not due: the alarm that ran was for something else; the sweep's stays set.
    if (now < this.sweptAt + DAY_MS) return this.alarm.wakeAt(this.sweptAt + DAY_MS);
    // The workflow this runner serves, named by its records (none: nothing to sweep).
    const [newest] = await this.storage.list<Row>({ prefix: "x/", reverse: true, limit: 1 });
    const config = newest ? await this.source.workflow(newest[1].workflowId) : null;
    if (config) {
      const before = now - config.retention.executionDays * DAY_MS;
      for (let page = 0; page < MAX_PAGES; page++) {
        if (!(await deleteFinished(this.storage, { before })).more) break;
      }
      this.requests.setMaxAge(config.retention.requestLogDays * DAY_MS);
      await this.requests.sweep(now);
    }
    this.sweptAt = now;
    await this.storage.put(SWEPT, now);
    await this.alarm.wakeAt(now + DAY_MS);
  }
}
