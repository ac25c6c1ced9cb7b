/**
 * Result handles (docs/webhooks.md#result-handles): a lastNode call past its timeout gets 504 with
 * `error.resultUrl` and `Location`; GET on it answers 202 while the run goes on, then the answer
 * the call would have got; an unknown or altered token is 404.
 */
import { describe, expect, it } from "vitest";
import { redactUrl } from "../../src/platform/log";
import { call, eventually, expectJson, seedWorkspace } from "../helpers/api";
import { expectError } from "../helpers/errors";
import { createWorkflow, hook } from "../helpers/workflows";

describe("result handles", () => {
  it("hands out a result URL on 504 that answers 202, then the final output", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, {
      nodes: [
        { type: "webhook", responseMode: "lastNode", responseTimeoutSeconds: 1 },
        { key: "pause", type: "wait", seconds: 2 },
        { key: "done", type: "set", fields: { orderId: "{{webhook_1.body.orderId}}" } },
      ],
      connections: [
        { from: "webhook_1", to: "pause" },
        { from: "pause", to: "done" },
      ],
    });
    const response = await hook(flow.webhookUrls.webhook_1 as string, { body: { orderId: 9 } });
    const body = await expectJson<{
      error: { code: string; executionId: string; resultUrl: string };
    }>(response, 504);
    expect(body.error.code).toBe("workflow_timeout");
    expect(response.headers.get("location")).toBe(body.error.resultUrl);
    const path = new URL(body.error.resultUrl).pathname;
    expect(path).toMatch(/^\/webhooks\/results\/wf_[0-9A-Za-z]+\.[0-9A-Za-z_-]{43}$/);

    const running = await call("GET", path);
    expect(await expectJson(running, 202)).toEqual({
      status: "running",
      executionId: body.error.executionId,
    });
    const done = await eventually(async () => {
      const answer = await call("GET", path);
      return answer.status === 200 ? answer : undefined;
    }, 10_000);
    expect(await done.json()).toEqual({ orderId: 9 });
    expect(done.headers.get("x-execution-id")).toBe(body.error.executionId);

    const altered = path.slice(0, -1) + (path.endsWith("A") ? "B" : "A");
    await expectError(await call("GET", altered), 404, "not_found");
    await expectError(await call("GET", "/webhooks/results/nope"), 404, "not_found");
    // Well formed, but no such workflow: refused before any runner is reached.
    const madeUp = `/webhooks/results/wf_${"A".repeat(22)}.${"b".repeat(43)}`;
    await expectError(await call("GET", madeUp), 404, "not_found");
    // The token is a credential: logs never hold it.
    expect(redactUrl(`https://edge.test${path}`)).toBe("/webhooks/results/[redacted]");
  });
});
