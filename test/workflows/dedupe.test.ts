/**
 * A webhook node's `dedupe` (docs/webhooks.md#deduplication): a repeated delivery key within the
 * window starts nothing and answers as the first call did, with `x-deduplicated: true`; exact
 * under concurrency; the verify preset's own delivery id by default; an empty key never dedupes.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { call, expectJson, seedWorkspace } from "../helpers/api";
import {
  createWorkflow,
  executionCount,
  githubSignature,
  hook,
  putSecret,
} from "../helpers/workflows";

const keyed = (extra: Record<string, unknown> = {}) => ({
  nodes: [
    { type: "webhook", dedupe: { key: "{{webhook_1.headers.x-delivery}}" }, ...extra },
    { key: "ok", type: "set", fields: { orderId: "{{webhook_1.body.orderId}}" } },
  ],
  connections: [{ from: "webhook_1", to: "ok" }],
});

describe("webhook deduplication", () => {
  it("answers a repeated key with the first executionId and starts nothing; an empty key never dedupes", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, keyed());
    const url = flow.webhookUrls.webhook_1 as string;
    const send = (delivery?: string) =>
      hook(url, { headers: delivery ? { "x-delivery": delivery } : {}, body: { orderId: 1 } });
    const first = await send("d-1");
    const { executionId } = await expectJson<{ executionId: string }>(first, 200);
    expect(first.headers.get("x-deduplicated")).toBeNull();
    const again = await send("d-1");
    expect(await expectJson(again, 200)).toEqual({ success: true, executionId });
    expect(again.headers.get("x-deduplicated")).toBe("true");
    expect(
      (await expectJson<{ executionId: string }>(await send("d-2"), 200)).executionId,
    ).not.toBe(executionId);
    await send();
    await send();
    expect(await executionCount(ws, flow.id)).toBe(4);
  });

  it("starts one execution for twenty simultaneous deliveries of one key", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, keyed());
    const url = flow.webhookUrls.webhook_1 as string;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        hook(url, { headers: { "x-delivery": "same" }, body: { orderId: 2 } }),
      ),
    );
    const ids = await Promise.all(
      answers.map(async (r) => (await expectJson<{ executionId: string }>(r, 200)).executionId),
    );
    expect(new Set(ids).size).toBe(1);
    expect(answers.filter((r) => r.headers.get("x-deduplicated") === "true")).toHaveLength(19);
    expect(await executionCount(ws, flow.id)).toBe(1);
  });

  it("lastNode: a repeat gets the first execution's output", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, keyed({ responseMode: "lastNode" }));
    const url = flow.webhookUrls.webhook_1 as string;
    const first = await hook(url, { headers: { "x-delivery": "L" }, body: { orderId: 7 } });
    expect(await expectJson(first, 200)).toEqual({ orderId: 7 });
    const again = await hook(url, { headers: { "x-delivery": "L" }, body: { orderId: 8 } });
    expect(await expectJson(again, 200)).toEqual({ orderId: 7 });
    expect(again.headers.get("x-deduplicated")).toBe("true");
    expect(again.headers.get("x-execution-id")).toBe(first.headers.get("x-execution-id"));
  });

  it("takes the verify preset's delivery id by default, and forgets a key after its window", async () => {
    const ws = await seedWorkspace();
    await putSecret(ws, "GH", "gh-secret");
    const flow = await createWorkflow(ws, {
      nodes: [
        {
          type: "webhook",
          verify: { preset: "github", secret: "{{secrets.GH}}" },
          dedupe: { windowSeconds: 1 },
        },
      ],
    });
    const body = '{"zen":"Keep it logically awesome."}';
    const headers = {
      "content-type": "application/json",
      "x-github-delivery": "72d3162e-cc78-11e3-81ab-4c9367dc0958",
      "x-hub-signature-256": await githubSignature("gh-secret", body),
    };
    const url = flow.webhookUrls.webhook_1 as string;
    await hook(url, { headers, body });
    expect((await hook(url, { headers, body })).headers.get("x-deduplicated")).toBe("true");
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await hook(url, { headers, body })).headers.get("x-deduplicated")).toBeNull();
    expect(await executionCount(ws, flow.id)).toBe(2);
  });

  it("refuses bad settings with every problem listed", async () => {
    const ws = await seedWorkspace();
    const response = await call("POST", "/v1/manage/workflows", {
      token: ws.ownerToken,
      body: {
        name: "Bad dedupe",
        slug: "bad-dedupe",
        nodes: [
          { type: "webhook", dedupe: { windowSeconds: 0 } },
          {
            key: "other",
            type: "webhook",
            dedupe: { key: "{{webhook_1.headers.x-id}}", extra: 1 },
          },
        ],
        connections: [],
      },
    });
    const body = await expectJson<{ error: { details: { field: string; code: string }[] } }>(
      response,
      400,
    );
    expect(body.error.details.map((d) => `${d.field} ${d.code}`).sort()).toEqual(
      [
        "nodes[0].dedupe.key required",
        "nodes[0].dedupe.windowSeconds out_of_range",
        "nodes[1].dedupe.extra unknown_field",
        "nodes[1].dedupe.key invalid_reference",
      ].sort(),
    );
  });
});

describe("webhook deduplication with literal text in the key", () => {
  it("does not dedupe calls whose named part is missing", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, {
      nodes: [{ type: "webhook", dedupe: { key: "gh-{{webhook_1.headers.x-delivery}}" } }],
    });
    const url = flow.webhookUrls.webhook_1 as string;
    for (let i = 0; i < 2; i++) {
      expect((await hook(url, { body: {} })).headers.get("x-deduplicated")).toBeNull();
    }
    expect(await executionCount(ws, flow.id)).toBe(2);
    const plain = await call("POST", "/v1/manage/workflows", {
      token: ws.ownerToken,
      body: {
        name: "p",
        slug: "plain-key",
        nodes: [{ type: "webhook", dedupe: { key: "same" } }],
        connections: [],
      },
    });
    expect(plain.status).toBe(400);
  });
});

describe("webhook deduplication when the first start fails", () => {
  it("releases the key, so the sender's retry runs", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, keyed());
    const stub = env.WORKFLOW_RUNNER.get(env.WORKFLOW_RUNNER.idFromName(flow.id));
    const url = flow.webhookUrls.webhook_1 as string;
    await runInDurableObject(stub, async (instance) => {
      const executor = (
        instance as unknown as { executor: { start: (...args: unknown[]) => unknown } }
      ).executor;
      const start = executor.start;
      executor.start = () => Promise.reject(new Error("storage unavailable"));
      const errors = vi.spyOn(console, "error").mockImplementation(() => {});
      const failed = await hook(url, { headers: { "x-delivery": "once" }, body: { orderId: 3 } });
      errors.mockRestore();
      expect(failed.status).toBe(500);
      executor.start = start;
    });
    const retried = await hook(url, { headers: { "x-delivery": "once" }, body: { orderId: 3 } });
    expect(retried.status).toBe(200);
    expect(retried.headers.get("x-deduplicated")).toBeNull();
    expect(await executionCount(ws, flow.id)).toBe(1);
  });
});
