/**
 * Result handles (docs/webhooks.md#result-handles): a lastNode call past its timeout gets 504 with
 * `error.resultUrl` (also `Location`), which names the execution, and `error.resultToken`, its
 * credential, sent as `Authorization: Bearer` so that no URL a request log keeps holds it; GET
 * answers 202 while the run goes on, then the answer the call would have got. No token, or an
 * unknown or altered one, is 401; another execution's is 404; the old form, the token in the
 * path, opens nothing.
 */
import { describe, expect, it } from "vitest";
import { call, eventually, expectJson, ORIGIN, seedWorkspace } from "../helpers/api";
import { expectError } from "../helpers/errors";
import { createWorkflow, hook } from "../helpers/workflows";

type Timeout = {
  error: { code: string; executionId: string; resultUrl: string; resultToken: string };
};

describe("result handles", () => {
  it("hands out a URL and a token on 504; GET with the token answers 202, then the final output", async () => {
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
    const body = await expectJson<Timeout>(response, 504);
    const { executionId, resultUrl, resultToken: token } = body.error;
    expect(body.error.code).toBe("workflow_timeout");
    expect(resultUrl).toBe(`${ORIGIN}/webhooks/results/${executionId}`);
    expect(response.headers.get("location")).toBe(resultUrl);
    expect(token).toMatch(new RegExp(`^${flow.id}\\.[0-9A-Za-z_-]{43}$`));
    // The secret is in no URL the service hands out.
    const secret = token.split(".")[1] as string;
    expect(`${resultUrl} ${response.headers.get("location")}`).not.toContain(secret);
    const path = new URL(resultUrl).pathname;

    const running = await call("GET", path, { token });
    expect(await expectJson(running, 202)).toEqual({ status: "running", executionId });
    const done = await eventually(async () => {
      const answer = await call("GET", path, { token });
      return answer.status === 200 ? answer : undefined;
    }, 10_000);
    expect(await done.json()).toEqual({ orderId: 9 });
    expect(done.headers.get("x-execution-id")).toBe(executionId);

    // No token, or one that leads to no result: 401 invalid_key with its challenge.
    const missing = await call("GET", path);
    await expectError(missing, 401, "invalid_key");
    expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="agent-edge"');
    const altered = token.slice(0, -1) + (token.endsWith("A") ? "B" : "A");
    await expectError(await call("GET", path, { token: altered }), 401, "invalid_key");
    await expectError(await call("GET", path, { token: "nope" }), 401, "invalid_key");
    // Well formed, but no such workflow: refused before any runner is reached.
    const madeUp = `wf_${"A".repeat(22)}.${"b".repeat(43)}`;
    await expectError(await call("GET", path, { token: madeUp }), 401, "invalid_key");
    // The token is good, but for another execution than the URL names.
    await expectError(
      await call("GET", "/webhooks/results/exe_another", { token }),
      404,
      "not_found",
    );
    // The old form, the token in the path, opens nothing, with or without the header.
    await expectError(await call("GET", `/webhooks/results/${token}`), 401, "invalid_key");
    await expectError(await call("GET", `/webhooks/results/${token}`, { token }), 404, "not_found");
  });
});
