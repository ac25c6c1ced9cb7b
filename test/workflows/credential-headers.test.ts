/**
 * Execution records never show the caller's credentials (docs/security.md#what-executions-show):
 * `Authorization`, cookies, API keys and signature headers are `[redacted]` in the trigger's
 * output and wherever a later node copied them, in the record, the list and a replay's record,
 * as the request log already shows them; templates read them raw while the execution runs, and a
 * replay gets the call as it was (kept sealed).
 */
import { describe, expect, it, vi } from "vitest";
import { call, expectJson, seedWorkspace } from "../helpers/api";
import {
  createWorkflow,
  ECHO_URL,
  type ExecutionView,
  execution,
  hook,
} from "../helpers/workflows";

const CALLER = {
  authorization: "Bearer caller-credential-0123456789",
  cookie: "session=cookie-credential-0123456789",
  "x-api-key": "apikey-credential-0123456789",
  "x-hub-signature-256": "sha256=signature-credential-0123456789",
  "x-order": "order-1042-visible",
};
const CREDENTIALS = Object.values(CALLER).filter((value) => !value.includes("visible"));

describe("execution records and the caller's credentials", () => {
  it("redact credential headers in the record, the list and wherever they were copied", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, {
      nodes: [
        { type: "webhook", responseMode: "lastNode" },
        {
          key: "check",
          type: "condition",
          left: "{{webhook_1.headers.authorization}}",
          operator: "equals",
          right: CALLER.authorization,
        },
        {
          key: "forward",
          type: "http_request",
          method: "POST",
          url: `${ECHO_URL}/echo`,
          headers: { authorization: "{{webhook_1.headers.authorization}}" },
          body: { cookie: "{{webhook_1.headers.cookie}}" },
        },
        {
          key: "copy",
          type: "set",
          fields: {
            seen: "{{webhook_1.headers.x-api-key}}",
            order: "{{webhook_1.headers.x-order}}",
          },
        },
      ],
      connections: [
        { from: "webhook_1", to: "check" },
        { from: "check", to: "forward", branch: "true" },
        { from: "forward", to: "copy" },
      ],
    });
    const response = await hook(flow.webhookUrls.webhook_1 as string, {
      headers: CALLER,
      body: { n: 1 },
    });
    // The condition read the raw value (its true branch ran); the caller gets its answer.
    expect(await expectJson(response, 200)).toEqual({
      seen: CALLER["x-api-key"],
      order: CALLER["x-order"],
    });
    const executionId = response.headers.get("x-execution-id") as string;
    const record = await execution(ws, flow.id, executionId);
    const trigger = record.nodes[0]?.output as { headers: Record<string, string> };
    expect(trigger.headers).toMatchObject({
      authorization: "[redacted]",
      cookie: "[redacted]",
      "x-api-key": "[redacted]",
      "x-hub-signature-256": "[redacted]",
      "x-order": "order-1042-visible",
    });
    expect(record.nodes.find((run) => run.key === "copy")?.output).toEqual({
      seen: "[redacted]",
      order: "order-1042-visible",
    });
    const list = await call("GET", `/v1/manage/workflows/${flow.id}/executions`, {
      token: ws.ownerToken,
    });
    const shown = `${JSON.stringify(record)}${await list.text()}`;
    for (const credential of CREDENTIALS) {
      expect(shown).not.toContain(credential.split("=").at(-1));
    }
    expect(shown).toContain("order-1042-visible");

    // A replay gets the call as it was: its condition sees the raw Authorization again.
    const replayed = await expectJson<ExecutionView>(
      await call("POST", `/v1/manage/workflows/${flow.id}/executions/${executionId}/replay`, {
        token: ws.ownerToken,
        body: {},
      }),
      201,
    );
    const settled = await vi.waitFor(async () => {
      const again = await execution(ws, flow.id, replayed.id);
      if (again.status === "running") throw new Error("running");
      return again;
    });
    expect(settled.status).toBe("succeeded");
    expect(settled.nodes.find((run) => run.key === "copy")?.output).toEqual({
      seen: "[redacted]",
      order: "order-1042-visible",
    });
    expect(JSON.stringify(settled)).not.toContain("credential-0123456789");
  });
});
