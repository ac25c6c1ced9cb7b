/**
 * `GET /v1/manage/metrics` (docs/operations.md#metrics): the counts of real calls in the hour they
 * happened (links created and opened, conversations started and ended, executions by how they
 * ended, webhook calls by outcome with p50/p99, delivery attempts by result), over every runner
 * shard; the counters written survive a restart of the runner; members read their own
 * workspace only, widget keys are refused; windows past the limits get 400.
 */
import { evictDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { attemptDelivery } from "../../src/events/delivery";
import { resendDelivery } from "../../src/events/delivery-log";
import { RUNNER_CAPACITY_PER_MINUTE } from "../../src/workflows/runner/shards";
import { METRIC_QUERIES } from "../../src/workspace/metrics";
import {
  call,
  errorCode,
  eventually,
  expectJson,
  seedWorkspace,
  type Workspace,
} from "../helpers/api";
import { connect, createLaunch, open } from "../helpers/chat";
import { answering, pendingDelivery, registerReceiver } from "../helpers/events";
import { shardStub } from "../helpers/shards";
import { createWorkflow, ECHO_URL, hook } from "../helpers/workflows";

type Stats = { calls: number; p50Ms: number | null; p99Ms: number | null };
type Values = {
  links: { created: number; opened: number };
  conversations: { started: number; ended: number };
  executions: { succeeded: number; failed: number };
  webhooks: Stats & { outcomes: Record<string, Stats> };
  deliveries: { succeeded: number; failed: number };
};
type Metrics = {
  from: string;
  to: string;
  step: string;
  points: (Values & { at: string })[];
  totals: Values;
};

const HOUR = 3_600_000;

const metrics = async (ws: Workspace, query = "", token = ws.ownerToken) =>
  expectJson<Metrics>(await call("GET", `/v1/manage/metrics${query}`, { token }), 200);

/** The point of the current hour. */
const thisHour = (body: Metrics) => {
  const at = new Date(Math.floor(Date.now() / HOUR) * HOUR).toISOString();
  const point = body.points.find((p) => p.at === at);
  if (!point) throw new Error(`no point at ${at}`);
  return point;
};

const echo = (responseMode = "immediate") => ({
  nodes: [
    { type: "webhook", responseMode },
    { key: "ok", type: "set", fields: { n: "{{webhook_1.body.n}}" } },
  ],
  connections: [{ from: "webhook_1", to: "ok" }],
});

describe("GET /v1/manage/metrics", () => {
  it("counts what happened in the hour it happened: links, conversations, executions, webhook calls, deliveries", async () => {
    const ws = await seedWorkspace();
    const empty = await metrics(ws);
    expect(empty.step).toBe("hour");
    expect(empty.points).toHaveLength(24);
    expect(empty.totals.links.created).toBe(0);

    const links = [await createLaunch(ws), await createLaunch(ws), await createLaunch(ws)];
    const opened = [await open(links[0]?.token ?? ""), await open(links[1]?.token ?? "")];
    const client = await connect(opened[0]?.socketUrl ?? "");
    client.send({ type: "end" });
    await client.next("ended");

    const ok = await createWorkflow(ws, echo());
    const failing = await createWorkflow(ws, {
      nodes: [
        { type: "webhook", responseMode: "lastNode" },
        { key: "call", type: "http_request", url: `${ECHO_URL}/status/503` },
      ],
      connections: [{ from: "webhook_1", to: "call" }],
    });
    for (let n = 0; n < 3; n++) await hook(ok.webhookUrls.webhook_1 as string, { body: { n } });
    await hook(ok.webhookUrls.webhook_1 as string, { method: "GET" });
    expect((await hook(failing.webhookUrls.webhook_1 as string, { body: {} })).status).toBe(500);

    const receiver = await registerReceiver(ws, { events: ["link.revoked"] });
    // Both attempts in this hour, also when the test runs in the last minute of one.
    const hourStart = Math.floor(Date.now() / HOUR) * HOUR;
    const now = Math.min(Date.now(), hourStart + HOUR - 61_000);
    const delivery = await pendingDelivery(ws, receiver.endpointId, now);
    await attemptDelivery(env, delivery, now, answering(500).fetchImpl);
    await attemptDelivery(env, delivery, now + 60_000, answering(200).fetchImpl);

    const point = await eventually(async () => {
      const found = thisHour(await metrics(ws));
      return found.conversations.ended === 1 && found.executions.failed === 1 ? found : undefined;
    });
    expect(point.links).toEqual({ created: 3, opened: 2 });
    expect(point.conversations).toEqual({ started: 2, ended: 1 });
    expect(point.executions).toEqual({ succeeded: 3, failed: 1 });
    expect(point.webhooks.calls).toBe(5);
    expect(point.webhooks.outcomes.accepted?.calls).toBe(4);
    expect(point.webhooks.outcomes.method_not_allowed?.calls).toBe(1);
    expect(Object.keys(point.webhooks.outcomes).sort()).toEqual(["accepted", "method_not_allowed"]);
    expect(point.deliveries).toEqual({ succeeded: 1, failed: 1 });
    const body = await metrics(ws);
    expect(body.totals.links).toEqual({ created: 3, opened: 2 });
    expect(body.totals.executions).toEqual({ succeeded: 3, failed: 1 });
    expect(body.totals.webhooks.calls).toBe(5);
    // Every other hour is zero.
    const others = body.points.filter((p) => p.at !== point.at);
    expect(others.every((p) => p.links.created === 0 && p.webhooks.calls === 0)).toBe(true);
  });

  it("counts every successful attempt once: kept on its delivery, moved out by a resend, or an attempt row of a delivery stored before migration 0016", async () => {
    const ws = await seedWorkspace();
    const receiver = await registerReceiver(ws, { events: ["link.revoked"] });
    const hourStart = Math.floor(Date.now() / HOUR) * HOUR;
    const now = Math.min(Date.now(), hourStart + HOUR - 61_000);
    // Succeeded, resent (its success becomes an attempt row) and succeeded again.
    const resent = await pendingDelivery(ws, receiver.endpointId, now);
    await attemptDelivery(env, resent, now, answering(200).fetchImpl);
    const quiet = { ...env, EVENT_DELIVERIES: { sendBatch: async () => {} } } as never;
    await resendDelivery(quiet, ws.workspaceId, receiver.endpointId, resent, now + 1_000);
    await attemptDelivery(env, resent, now + 2_000, answering(200).fetchImpl);
    // The old layout: a succeeded delivery whose one attempt is a row of its own.
    const old = await pendingDelivery(ws, receiver.endpointId, now);
    await env.DB.batch([
      env.DB.prepare(
        "UPDATE event_deliveries SET status = 'succeeded', attempts = 1, step = 1, next_attempt_at = NULL WHERE id = ?",
      ).bind(old),
      env.DB.prepare(
        "INSERT INTO delivery_attempts (id, delivery_id, endpoint_id, at, response_status, latency_ms, response_body) VALUES (?, ?, ?, ?, 200, 3, 'ok')",
      ).bind(
        `att_${crypto.randomUUID().replaceAll("-", "")}`,
        old,
        receiver.endpointId,
        now + 3_000,
      ),
    ]);
    expect(thisHour(await metrics(ws)).deliveries).toEqual({ succeeded: 3, failed: 0 });
    const log = await expectJson<{
      data: { id: string; attempts: { responseStatus: number; responseBody: string }[] }[];
    }>(
      await call("GET", `/v1/manage/event-endpoints/${receiver.endpointId}/deliveries`, {
        token: ws.ownerToken,
      }),
      200,
    );
    const attempts = (id: string) =>
      log.data.find((delivery) => delivery.id === id)?.attempts.map((a) => a.responseStatus);
    expect(attempts(resent)).toEqual([200, 200]);
    expect(attempts(old)).toEqual([200]);
  });

  it("tells p50 and p99 of the answer times: one slow lastNode call among fast ones is the 99th percentile", async () => {
    const ws = await seedWorkspace();
    const fast = await createWorkflow(ws, echo());
    const slow = await createWorkflow(ws, {
      nodes: [
        { type: "webhook", responseMode: "lastNode" },
        { key: "pause", type: "wait", seconds: 1 },
      ],
      connections: [{ from: "webhook_1", to: "pause" }],
    });
    for (let n = 0; n < 4; n++) await hook(fast.webhookUrls.webhook_1 as string, { body: { n } });
    const started = Date.now();
    expect((await hook(slow.webhookUrls.webhook_1 as string, { body: {} })).status).toBe(200);
    const slowMs = Date.now() - started;
    const { webhooks } = thisHour(await metrics(ws));
    expect(webhooks.calls).toBe(5);
    // The buckets tell a time within 9 %; the slow call took at least its 1 s wait.
    expect(webhooks.p99Ms).toBeGreaterThanOrEqual(1000 * 0.9);
    expect(webhooks.p99Ms).toBeLessThanOrEqual(slowMs * 1.1);
    expect(webhooks.p50Ms).toBeLessThan(500);
  });

  it("adds up every runner shard of a sharded workflow", async () => {
    const ws = await seedWorkspace();
    const rateLimitPerMinute = RUNNER_CAPACITY_PER_MINUTE + 1;
    const flow = await createWorkflow(ws, {
      ...echo(),
      nodes: [{ type: "webhook", rateLimitPerMinute }, echo().nodes[1]],
    });
    await Promise.all(
      Array.from({ length: 40 }, (_, n) =>
        hook(flow.webhookUrls.webhook_1 as string, { body: { n } }),
      ),
    );
    const shards = await Promise.all(
      [0, 1].map(async (shard) =>
        (await shardStub(flow.id, shard).metricBuckets(Date.now() - HOUR, Date.now() + HOUR, HOUR))
          .map((bucket) => bucket.counts.calls.accepted?.calls ?? 0)
          .reduce((a, b) => a + b, 0),
      ),
    );
    expect(shards.every((calls) => calls > 0)).toBe(true);
    const point = thisHour(await metrics(ws));
    expect(point.webhooks.outcomes.accepted?.calls).toBe(40);
    expect(point.executions.succeeded).toBe(40);
  });

  it("keeps the counts written through a restart of the runner", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, echo());
    for (let n = 0; n < 2; n++) await hook(flow.webhookUrls.webhook_1 as string, { body: { n } });
    // A read writes what is pending; the eviction then forgets the object's memory.
    expect(thisHour(await metrics(ws)).webhooks.calls).toBe(2);
    await evictDurableObject(shardStub(flow.id, 0));
    await hook(flow.webhookUrls.webhook_1 as string, { body: { n: 3 } });
    const point = thisHour(await metrics(ws));
    expect(point.webhooks.calls).toBe(3);
    expect(point.executions.succeeded).toBe(3);
  });

  it("shows members their own workspace only; refuses widget keys and no credential", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    await createLaunch(other);
    const invited = await expectJson<{ memberToken: string }>(
      await call("POST", "/v1/manage/members", {
        token: ws.ownerToken,
        body: { email: "reader@example.com", name: "Reader", role: "member" },
      }),
      201,
    );
    await createLaunch(ws);
    const mine = await metrics(ws, "", invited.memberToken);
    expect(mine.totals.links.created).toBe(1);
    expect((await metrics(other)).totals.links.created).toBe(1);
    const byKey = await call("GET", "/v1/manage/metrics", { token: ws.widgetKey });
    expect(byKey.status).toBe(403);
    expect(await errorCode(byKey)).toBe("insufficient_scope");
    expect((await call("GET", "/v1/manage/metrics")).status).toBe(401);
  });

  it("by day: whole UTC days, 30 by default", async () => {
    const ws = await seedWorkspace();
    await createLaunch(ws);
    const body = await metrics(ws, "?step=day");
    expect(body.points).toHaveLength(30);
    expect(body.points.every((p) => p.at.endsWith("T00:00:00.000Z"))).toBe(true);
    expect(body.points.at(-1)?.links.created).toBe(1);
    const from = "2026-01-01T10:30:00Z";
    const to = "2026-01-03T00:00:01Z";
    const exact = await metrics(ws, `?step=day&from=${from}&to=${to}`);
    expect(exact.from).toBe("2026-01-01T00:00:00.000Z");
    expect(exact.to).toBe("2026-01-04T00:00:00.000Z");
    expect(exact.points).toHaveLength(3);
  });

  it.each([
    ["more than 744 hours", "?from=2026-01-01T00:00:00Z&to=2026-02-01T01:00:00Z"],
    ["more than 400 days", "?step=day&from=2025-01-01T00:00:00Z&to=2026-02-06T00:00:00Z"],
    ["from after to", "?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z"],
    ["an unknown step", "?step=week"],
    ["a time that is not one", "?from=yesterday"],
    ["an unknown parameter", "?workspace=ws_other"],
  ])("refuses %s with 400 invalid_request", async (_label, query) => {
    const ws = await seedWorkspace();
    const response = await call("GET", `/v1/manage/metrics${query}`, { token: ws.ownerToken });
    expect(response.status).toBe(400);
    expect(await errorCode(response)).toBe("invalid_request");
  });

  it("answers 744 hours, the most it allows", async () => {
    const ws = await seedWorkspace();
    const body = await metrics(ws, "?from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z");
    expect(body.points).toHaveLength(744);
  });

  it.each(Object.entries(METRIC_QUERIES))(
    "reads %s by index, in the window only",
    async (_name, sql) => {
      const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind(0, 1, HOUR, "ws_x")
        .all<{ detail: string }>();
      const details = plan.results.map((row) => row.detail).join("\n");
      expect(details).toMatch(
        /USING (COVERING )?INDEX (links|delivery_attempts|event_deliveries)_\w+ \((\w+=\? AND )+\w+>\? AND \w+<\?\)/,
      );
      expect(details).not.toMatch(/SCAN (links|delivery_attempts|event_deliveries)\b(?! USING)/);
    },
  );
});
