/**
 * http_request retries in the runner (docs/api/webhooks.md#http-request-node): the waits between
 * attempts are durable (alarms), and each attempt is in the execution record.
 */
import { describe, expect, it } from "vitest";
import { expectJson, seedWorkspace } from "../helpers/api";
import { createWorkflow, ECHO_URL, execution, hook } from "../helpers/workflows";

describe("http_request retries in the runner", () => {
  it("retries a failing server on alarms and records each attempt", async () => {
    const ws = await seedWorkspace();
    const id = `retry-${crypto.randomUUID()}`;
    const flow = await createWorkflow(ws, {
      nodes: [
        { type: "webhook", responseMode: "lastNode", responseTimeoutSeconds: 20 },
        {
          key: "call",
          type: "http_request",
          method: "POST",
          url: `${ECHO_URL}/receiver/${id}?fail=2`,
          retry: { maxAttempts: 3, backoffSeconds: 0.1 },
        },
      ],
      connections: [{ from: "webhook_1", to: "call" }],
    });
    const response = await hook(flow.webhookUrls.webhook_1 as string, { body: { n: 1 } });
    expect(await expectJson(response, 200)).toMatchObject({ status: 200, body: { received: 3 } });
    const record = await execution(ws, flow.id, response.headers.get("x-execution-id") as string);
    const call = record.nodes.find((node) => node.key === "call") as unknown as {
      status: string;
      attempts: { status: number | null; error: string }[];
    };
    expect(call.status).toBe("succeeded");
    expect(call.attempts.map((attempt) => attempt.status)).toEqual([500, 500]);
  });
});
