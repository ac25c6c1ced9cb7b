/**
 * The http_request node under the deployed defaults (docs/security.md#outbound-requests): a
 * workflow that fetches whatever URL its caller names cannot reach this machine in any spelling.
 * The node fails with `destination_not_allowed`, nothing reaches the server, and the anonymous
 * caller learns nothing of it. This file runs on the runtime without ALLOW_PRIVATE_OUTBOUND.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import { createWorkflow, ECHO_URL, execution, hook, type WorkflowView } from "../helpers/workflows";

const port = new URL(ECHO_URL).port;
let ws: Workspace;
let flow: WorkflowView;

beforeAll(async () => {
  ws = await seedWorkspace();
  flow = await createWorkflow(ws, {
    nodes: [
      { type: "webhook", responseMode: "lastNode" },
      { key: "fetch", type: "http_request", url: "{{webhook_1.body.target}}" },
    ],
    connections: [{ from: "webhook_1", to: "fetch" }],
  });
});

/** How many requests the echo server counted under `id` (the test's own fetch is not the node's). */
const hits = async (id: string) =>
  ((await (await fetch(`${ECHO_URL}/hits/${id}`)).json()) as { hits: number }).hits;

describe("an http_request node deployed", () => {
  it.each([
    "127.0.0.1",
    "127.1",
    "2130706433",
    "0x7f.0.0.1",
    "0177.0.0.1",
    "127.0.0.1.",
    "localhost",
    "localhost.",
    "echo.localhost",
    "[::1]",
    "[::ffff:127.0.0.1]",
  ])("refuses http://%s:<port> and sends nothing", async (host) => {
    const id = `policy-${crypto.randomUUID()}`;
    const response = await hook(flow.webhookUrls.webhook_1 as string, {
      body: { target: `http://${host}:${port}/count/${id}` },
    });
    const answer = await expectJson<{ error: { code: string } }>(response, 500);
    expect(answer.error.code).toBe("workflow_failed");
    expect(JSON.stringify(answer)).not.toContain("hits");
    const record = await execution(ws, flow.id, response.headers.get("x-execution-id") as string);
    expect(record.nodes[1]).toMatchObject({
      key: "fetch",
      status: "failed",
      errorCode: "destination_not_allowed",
      error: expect.stringMatching(/not public|local/),
    });
    expect(record.nodes[1]?.output).toBeUndefined();
    expect(await hits(id)).toBe(0);
  });

  it("a refused destination is not retried, whatever the node's retry says", async () => {
    const retried = await createWorkflow(ws, {
      nodes: [
        { type: "webhook", responseMode: "lastNode" },
        {
          key: "fetch",
          type: "http_request",
          url: `${ECHO_URL}/status/503`,
          retry: { maxAttempts: 3, backoffSeconds: 1 },
        },
      ],
      connections: [{ from: "webhook_1", to: "fetch" }],
    });
    const response = await hook(retried.webhookUrls.webhook_1 as string, { body: {} });
    expect(response.status).toBe(500);
    const record = await execution(
      ws,
      retried.id,
      response.headers.get("x-execution-id") as string,
    );
    expect(record.nodes[1]).toMatchObject({
      status: "failed",
      errorCode: "destination_not_allowed",
    });
    expect(record.nodes[1]).not.toHaveProperty("attempts");
  });
});
