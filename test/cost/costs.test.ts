/**
 * What one call costs on Cloudflare (docs/performance.md), counted by the meter: the targets of
 * issue 16 (create ≤ 3 rows written, look-up ≤ 2 rows read, an immediate webhook ≤ 1 object call),
 * steady calls costing the same each time, and the page's tables held to the measured counts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedWorkspace } from "../helpers/api";
import { cellNumber, docTable, markdownRow } from "./doc-tables";
import { billedObjectRequests, type Tally, tableRowsWritten, uninstallMeter } from "./meter";
import {
  BURST_CALLS,
  chatExchanges,
  eventOperations,
  launchOperations,
  listByExternalId,
  type Measured,
  seedHistory,
  webhookOperations,
} from "./operations";
import { type Counts, countsOf, pricePerMillion } from "./prices";
import {
  bytesPerExchange,
  bytesPerExecution,
  bytesPerLink,
  bytesPerLinkWithEvent,
} from "./storage";

/** The operations by their names in docs/performance.md. */
const measured = new Map<string, Measured>();
let chat: Tally[] = [];
let burst: Tally;

const COUNT_COLUMNS: (keyof Counts)[] = [
  "workerInvocations",
  "objectRequests",
  "d1RowsRead",
  "d1RowsWritten",
  "objectRowsRead",
  "objectRowsWritten",
  "queueOperations",
];

/** Counts without the trace, for comparing two calls. */
const comparable = ({ trace: _trace, ...tally }: Tally) => tally;
const steady = (name: string): Tally => {
  const found = measured.get(name);
  if (!found) throw new Error(`not measured: ${name}`);
  return found.steady[0];
};

beforeAll(async () => {
  const launch = await launchOperations();
  measured.set("Create a link", launch.create);
  measured.set("Look up a link", launch.lookUp);
  measured.set("Revoke a link", launch.revoke);
  const events = await eventOperations();
  measured.set("Create a link, one endpoint listening", events.create);
  measured.set("Event delivery", events.delivery);
  const history = await seedWorkspace();
  await seedHistory(history, 10_000, 10);
  measured.set("List by externalId", await listByExternalId(history, "cus_123"));
  const hooks = await webhookOperations();
  measured.set("Webhook, immediate", hooks.immediate);
  measured.set("Webhook, lastNode", hooks.lastNode);
  measured.set("Webhook, immediate, GitHub verify", hooks.verified);
  burst = hooks.burst;
  chat = await chatExchanges();
  const [, second, third] = chat as [Tally, Tally, Tally, Tally];
  measured.set("Chat message and reply", { steady: [second, third] });
}, 120_000);
afterAll(() => uninstallMeter());

describe("the targets of issue 16 (docs/performance.md#targets)", () => {
  it("a create writes at most 3 table rows: the link in D1 and the key's rate-limit entry", () => {
    const create = steady("Create a link");
    expect(create.d1Changes).toBe(1);
    expect(create.objectRowsWritten).toBe(1);
    expect(tableRowsWritten(create)).toBeLessThanOrEqual(3);
  });

  it("a look-up reads at most 2 rows", () => {
    const lookUp = steady("Look up a link");
    expect(lookUp.d1RowsRead + lookUp.objectRowsRead).toBeLessThanOrEqual(2);
  });

  it("an immediate webhook makes one object call, to the workflow's runner", () => {
    const call = steady("Webhook, immediate");
    expect(call.objectCalls).toEqual({ LinkLedger: 0, WorkflowRunner: 1, Conversation: 0 });
    expect(billedObjectRequests(call)).toBe(1);
  });
});

describe("the measurements", () => {
  it("a steady call costs what the one before it did", () => {
    for (const [name, { steady: pair }] of measured) {
      expect(comparable(pair[1]), name).toEqual(comparable(pair[0]));
    }
  });

  it("a chat exchange reads and writes the same rows however many messages came before it", () => {
    // Exchanges 1 to 4 find 1 to 7 messages stored: the history and the rate limit's scan come
    // from the object's memory, so no read grows with the conversation.
    expect(new Set(chat.map((tally) => tally.objectRowsRead))).toEqual(new Set([0]));
    // Two messages, a row each: no sequence counter, no state (the idle time is the newest's).
    expect(new Set(chat.map((tally) => tally.objectRowsWritten))).toEqual(new Set([2]));
  });

  it("a webhook call alone writes at most 2 object rows, and GitHub's verify 3 more (issue 33)", () => {
    // Its execution record (keyed by its id: no index) and the request log's value, which keeps
    // the time the rate limit counted.
    expect(steady("Webhook, immediate").objectRowsWritten).toBeLessThanOrEqual(2);
    expect(steady("Webhook, lastNode").objectRowsWritten).toBeLessThanOrEqual(2);
    // The default deduplication's key: a row, its primary-key entry and its expiry index entry.
    expect(steady("Webhook, immediate, GitHub verify").objectRowsWritten).toBeLessThanOrEqual(5);
  });

  it("a burst of immediate webhook calls writes at most 1.2 object rows a call (issue 33)", () => {
    // Each call writes its execution record; the request-log entries of calls that arrive
    // together, and the rate limit's times inside them, go out as one value per write.
    expect(burst.objectCalls.WorkflowRunner).toBe(BURST_CALLS);
    expect(burst.objectRowsWritten / BURST_CALLS).toBeLessThanOrEqual(1.2);
  });

  it("a search reads the person's page, not the workspace: 1,000 or 10,000 links cost the same", async () => {
    // Ten links per person in both: 1,000 here, 10,000 in the workspace measured before.
    const small = await seedWorkspace();
    await seedHistory(small, 1_000, 10);
    const inSmall = (await listByExternalId(small, "cus_12")).steady[0];
    expect(steady("List by externalId").d1RowsRead).toBe(inSmall.d1RowsRead);
    // 25 links of one person, a page of 20: the page and the one row that says there is more.
    const many = await seedWorkspace();
    await seedHistory(many, 1_000, 25);
    const page = (await listByExternalId(many, "cus_7")).steady[0];
    expect(page.d1RowsRead).toBe(21);
  });
});

describe("docs/performance.md", () => {
  it("shows the measured counts per call", () => {
    const table = docTable("Counts per call");
    const expected = [...measured].map(([name, m]) => {
      const counts = countsOf(m.steady[0]);
      return markdownRow(name, [
        counts.workerInvocations,
        "see the benchmark table below",
        ...COUNT_COLUMNS.slice(1).map((c) => counts[c]),
      ]);
    });
    const shown = [...measured.keys()].map((name) => {
      const cells = table.get(name);
      return cells ? markdownRow(name, cells) : `(no row for ${name})`;
    });
    expect(shown.join("\n")).toEqual(expected.join("\n"));
  });

  it("shows the counts of first calls, where they differ from later ones", () => {
    const table = docTable("First calls");
    for (const [
      name,
      {
        cold,
        steady: [later],
      },
    ] of measured) {
      if (!cold) continue;
      const counts = countsOf(cold);
      const cells = table.get(name);
      if (!cells) {
        expect(comparable(cold), `${name} costs more the first time`).toEqual(comparable(later));
        continue;
      }
      expect(markdownRow(name, cells)).toBe(
        markdownRow(
          name,
          COUNT_COLUMNS.map((c) => counts[c]),
        ),
      );
    }
  });

  it("shows the price of one million calls of each, from those counts and the rates", () => {
    const table = docTable("Price of one million calls");
    for (const [name, m] of measured) {
      const price = pricePerMillion(countsOf(m.steady[0]));
      const cells = table.get(name);
      expect(cells, name).toBeDefined();
      const shown = (cells ?? []).map(cellNumber);
      const lines = [
        price.workers,
        price.objectRequests,
        price.d1Rows,
        price.objectRows,
        price.queues,
        price.total,
      ];
      for (const [index, value] of lines.entries()) {
        expect(shown[index], `${name}, column ${index + 2}`).toBeCloseTo(value, 4);
      }
    }
  });

  it("shows the storage a call adds, within 30 % of what is measured", async () => {
    const table = docTable("Storage added per call");
    const figures: [string, number][] = [
      // D1 is shared with the test files before this one, whose background work (deliveries,
      // batched writes) can still land during a measure: it only ever adds, so the least of two.
      ["A link", Math.min(await bytesPerLink(), await bytesPerLink())],
      [
        "A link with its event, delivery and attempt",
        Math.min(await bytesPerLinkWithEvent(), await bytesPerLinkWithEvent()),
      ],
      ["A webhook execution", await bytesPerExecution()],
      ["A chat exchange", await bytesPerExchange()],
    ];
    for (const [name, bytes] of figures) {
      const shown = cellNumber(table.get(name)?.[0]);
      expect(
        Math.abs(shown - bytes) / bytes,
        `${name}: measured ${Math.round(bytes)} B`,
      ).toBeLessThan(0.3);
    }
  }, 120_000);
});
