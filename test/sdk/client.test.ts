/**
 * The SDK (sdk/, docs/api/launch.md) against the Worker itself: typed calls, auto-pagination, the
 * typed error, and retries that are safe: a create whose answer was lost is retried with the same
 * Idempotency-Key and returns the first link; a 429 is retried after its Retry-After.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { AgentEdgeError, type CreateLaunch, createClient } from "../../sdk/src/index";
import { seedWorkspace, type Workspace } from "../helpers/api";
import { open } from "../helpers/chat";
import { linksInD1 } from "../helpers/seed-links";

const worker = (request: Request) => exports.default.fetch(request);

function clientOf(ws: Workspace, fetch = worker) {
  return createClient({ baseUrl: "https://edge.test", apiKey: ws.widgetKey, fetch, backoffMs: 1 });
}

/**
 * A create's body, typed as the SDK takes it: no cast, so a field the API defaults (such as
 * `expiresInSeconds`) must stay optional in the SDK's types for this to compile.
 */
function launchBody(ws: Workspace, extra: Partial<CreateLaunch> = {}): CreateLaunch {
  return { flowId: ws.agentId, channelId: ws.channelId, parameters: { plan: "basic" }, ...extra };
}

describe("the SDK", () => {
  it("creates, looks up, lists every page, ends and revokes, with typed errors", async () => {
    const ws = await seedWorkspace();
    const client = clientOf(ws);
    const body = launchBody(ws, { participant: { externalId: "cus_sdk" } });
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await client.launches.create(body));
    const [first, second] = made;
    if (!first || !second) throw new Error("two links were made");
    expect(first.token).toBeTruthy();
    expect((await client.launches.get(first.id)).status).toBe("pending");

    const listed = [];
    for await (const link of client.launches.list({ externalId: "cus_sdk", limit: 2 })) {
      listed.push(link.id);
    }
    expect(listed).toEqual(made.map((link) => link.id).reverse());

    const notOpened = await client.launches.end(first.id).catch((error) => error);
    expect(notOpened).toBeInstanceOf(AgentEdgeError);
    expect(notOpened).toMatchObject({ status: 409, code: "link_not_open" });
    expect(notOpened.requestId).toMatch(/^req_/);

    await open(second.token);
    await client.launches.end(second.id);
    expect((await client.launches.get(second.id)).status).toBe("ended");
    await client.launches.revoke(first.id);
    await client.launches.revoke(first.id);
    const missing = await client.launches.get("lnk_missing").catch((error) => error);
    expect(missing).toMatchObject({ status: 404, code: "not_found" });
  });

  it("retries a create whose answer was lost with the same Idempotency-Key: one link", async () => {
    const ws = await seedWorkspace();
    const keys: (string | null)[] = [];
    let lost = 1;
    const client = clientOf(ws, async (request) => {
      keys.push(request.headers.get("idempotency-key"));
      const response = await worker(request);
      // The server made the link, but its answer never reached us.
      if (lost-- > 0) throw new TypeError("network connection lost");
      return response;
    });
    const created = await client.launches.create(launchBody(ws));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
    expect(await linksInD1(ws.workspaceId)).toBe(1);
    expect(created.token).toBeTruthy();
  });

  it("waits out a 429's Retry-After, and gives up after maxRetries with the typed error", async () => {
    const ws = await seedWorkspace();
    let limited = 1;
    const started = Date.now();
    const client = clientOf(ws, async (request) => {
      if (limited-- > 0) {
        return Response.json(
          {
            error: { code: "rate_limited", message: "slow down", details: [], requestId: "req_x" },
          },
          { status: 429, headers: { "retry-after": "1" } },
        );
      }
      return worker(request);
    });
    await client.launches.create(launchBody(ws));
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);

    const alwaysDown = createClient({
      baseUrl: "https://edge.test",
      apiKey: ws.widgetKey,
      maxRetries: 2,
      backoffMs: 1,
      fetch: async () => Response.json({}, { status: 503 }),
    });
    const failed = await alwaysDown.launches.get("lnk_x").catch((error) => error);
    expect(failed).toMatchObject({ status: 503, code: "unknown_error" });
  });
});
