/**
 * The workspace the schema fuzz (test/platform/fuzz.test.ts) runs against, seeded through the API
 * with one or more real objects behind every path parameter of the document: links, agents and a
 * channel, members, widget keys, a secret, workflows with executions, logged requests, a result
 * handle and an armed test URL, event endpoints with a delivery, passkeys, a chat session. Objects a
 * generated request may change or delete are kept apart from those others depend on, so a DELETE
 * or a PUT does not turn the rest of the run into 404s.
 */
import { SIGN_IN } from "../../src/auth/sessions";
import { call, createWidgetKey, expectJson, OPERATOR_TOKEN, seedWorkspace } from "./api";
import { createLaunch, open } from "./chat";
import { registerReceiver } from "./events";
import { fuzzHints, knownBodies } from "./fuzz-hints";
import type { Draft, FuzzSeed, Operation } from "./fuzz-operations";
import { type Schema, SchemaArbitraries } from "./fuzz-schema";
import { sessionCookie } from "./session";
import { passkeyRegistration, registerPasskey } from "./webauthn";
import { createWorkflow, ECHO_URL, hook, putSecret } from "./workflows";

/** The seed of the generators, and what fills in a draft's live values before it is sent. */
export type FuzzWorld = FuzzSeed & { resolve(draft: Draft): Promise<Draft> };

type Ids = Record<string, string>[];
const three = <T>(make: (i: number) => Promise<T>) => Promise.all([0, 1, 2].map(make));
const idOf = async (response: Response, status = 201) =>
  (await expectJson<{ id: string }>(response, status)).id;

/**
 * Seeds the workspace for the operations of `document` (its `components.schemas` feed the
 * generators). @throws when a seeding call is not answered as expected (expectJson).
 */
export async function seedWorld(document: {
  components: { schemas: Record<string, Schema> };
}): Promise<FuzzWorld> {
  const now = Date.now();
  const ws = await seedWorkspace();
  const owner = ws.ownerToken;
  const post = (path: string, body: unknown, token = owner) => call("POST", path, { token, body });
  await putSecret(ws, "FUZZ", "fuzz-secret-value");
  // Passkeys take the longest (the WebAuthn library loads on first use): begun first, awaited last.
  const passkeys = three(() => registerPasskey(owner));

  const [links, chatLinks, otherAgent, victimAgents, victimKeys] = await Promise.all([
    three(() => createLaunch(ws)),
    three(() => createLaunch(ws)),
    idOf(await post("/v1/manage/agents", { name: "Patched", mode: "responder" })),
    three(async (i) => idOf(await post("/v1/manage/agents", { name: `V${i}`, mode: "responder" }))),
    three(async () => (await createWidgetKey(ws, { name: "victim" })).id),
  ]);
  const member = async (role: string) =>
    expectJson<{ member: { id: string }; memberToken: string }>(
      await post("/v1/manage/members", {
        email: `${crypto.randomUUID()}@example.com`,
        name: "M",
        role,
      }),
      201,
    );
  // Members whose role the fuzz changes, and others it removes.
  const changedMembers = (await three(() => member("member"))).map((m) => m.member.id);
  const victimMembers = (await three(() => member("member"))).map((m) => m.member.id);
  // Signing out everywhere is this member's business, so it never ends the owner's session.
  const leaver = await member("admin");
  const [ownerCookie, leaverCookie] = await Promise.all([
    sessionCookie(owner),
    sessionCookie(leaver.memberToken),
  ]);
  const chat = await open(chatLinks[0]?.token as string);
  // Links someone opened, so ending their conversation succeeds.
  const opened = await three(() => createLaunch(ws));
  await Promise.all(opened.map((link) => open(link.token)));
  // Links whose conversation ended, so a rating succeeds (once each).
  const ended = await three(() => createLaunch(ws));
  await Promise.all(
    ended.map(async (link) => {
      await open(link.token);
      const end = `/v1/widget/launches/${link.id}/end`;
      await expectJson(await call("POST", end, { token: ws.widgetKey }), 204);
    }),
  );

  // Workflows: one called and read, one answering lastNode, one held past its timeout for a
  // result handle, one to edit, start and stop, and victims.
  const flow = await createWorkflow(ws, {
    nodes: [{ type: "webhook" }, { key: "ok", type: "set", fields: { ok: true } }],
    connections: [{ from: "webhook_1", to: "ok" }],
  });
  const lastFlow = await createWorkflow(ws, {
    nodes: [
      { type: "webhook", responseMode: "lastNode" },
      { key: "check", type: "condition", left: "{{webhook_1.body.n}}", operator: "exists" },
      { key: "fetch", type: "http_request", url: `${ECHO_URL}/echo/fuzz` },
      { key: "done", type: "set", fields: { n: "{{webhook_1.body.n}}" } },
    ],
    connections: [
      { from: "webhook_1", to: "check" },
      { from: "check", to: "fetch", branch: "true" },
      { from: "check", to: "done", branch: "false" },
    ],
  });
  const heldFlow = await createWorkflow(ws, {
    nodes: [
      { type: "webhook", responseMode: "responseNode", responseTimeoutSeconds: 1 },
      { key: "pause", type: "wait", seconds: 60 },
      { key: "reply", type: "respond", body: { late: true } },
    ],
    connections: [
      { from: "webhook_1", to: "pause" },
      { from: "pause", to: "reply" },
    ],
  });
  const [editFlow, victimFlows, executions, held] = await Promise.all([
    createWorkflow(ws, { nodes: [{ type: "webhook" }] }),
    three(
      async () => (await createWorkflow(ws, { nodes: [{ type: "webhook" }] }, { start: false })).id,
    ),
    Promise.all(
      [1, 2].map(
        async (n) =>
          (
            await expectJson<{ executionId: string }>(
              await hook(flow.webhookUrls.webhook_1 as string, { body: { n } }),
              200,
            )
          ).executionId,
      ),
    ),
    expectJson<{ error: { resultUrl: string; resultToken: string } }>(
      await hook(heldFlow.webhookUrls.webhook_1 as string, { body: {} }),
      504,
    ),
    expectJson(await hook(lastFlow.webhookUrls.webhook_1 as string, { body: { n: 1 } }), 200),
  ]);
  // The test URL stays armed for the whole run: 20 calls, an hour of the moved clock.
  await expectJson(
    await post(`/v1/manage/workflows/${flow.id}/nodes/webhook_1/capture`, {
      count: 20,
      ttlSeconds: 3_600,
    }),
    201,
  );
  const logged = await expectJson<{ data: { id: string }[] }>(
    await call("GET", `/v1/manage/workflows/${flow.id}/requests`, { token: owner }),
    200,
  );
  const lastRuns = await expectJson<{ data: { id: string }[] }>(
    await call("GET", `/v1/manage/workflows/${lastFlow.id}/executions`, { token: owner }),
    200,
  );

  // Event endpoints on the echo server: one to read and send to, one to change, victims.
  const endpoint = (await registerReceiver(ws)).endpointId;
  const changed = (await registerReceiver(ws)).endpointId;
  const victimEndpoints = await three(async () => (await registerReceiver(ws)).endpointId);
  const sendTest = () =>
    call("POST", `/v1/manage/event-endpoints/${endpoint}/test`, { token: owner });
  const delivery = await idOf(await sendTest(), 200);
  await idOf(await sendTest(), 200);
  const victimPasskeys = await passkeys;
  // An erasure (of nobody), the operator's reseal, workspaces to delete, a channel to change.
  const erasure = await idOf(
    await call("POST", "/v1/widget/erasures", {
      token: ws.widgetKey,
      body: { externalId: "fuzz-nobody" },
    }),
    202,
  );
  const reseal = await idOf(
    await call("POST", "/v1/operator/reseal", { token: OPERATOR_TOKEN }),
    202,
  );
  const victimWorkspaces = await three(
    async (i) =>
      (
        await expectJson<{ workspace: { id: string } }>(
          await call("POST", "/v1/operator/workspaces", {
            token: OPERATOR_TOKEN,
            body: { name: `Victim ${i}`, owner: { email: `v${i}@example.com`, name: "V" } },
          }),
          201,
        )
      ).workspace.id,
  );
  const patchedChannel = await idOf(
    await post(`/v1/manage/agents/${otherAgent}/channels`, { type: "widget", name: "Patched" }),
  );

  // A cursor of each list that pages by an opaque one, so valid-shaped list calls can page.
  const cursorOf = async (path: string, token: string) =>
    (await expectJson<{ nextCursor: string }>(await call("GET", `${path}?limit=1`, { token }), 200))
      .nextCursor;
  const deliveries = `/v1/manage/event-endpoints/${endpoint}/deliveries`;
  const cursors: Record<string, string> = {
    "/v1/widget/launches": await cursorOf("/v1/widget/launches", ws.widgetKey),
    "/v1/manage/links": await cursorOf("/v1/manage/links", owner),
    "/v1/manage/event-endpoints/{id}/deliveries": await cursorOf(deliveries, owner),
    "/v1/manage/audit-log": await cursorOf("/v1/manage/audit-log", owner),
    "/v1/operator/audit-log": await cursorOf("/v1/operator/audit-log", OPERATOR_TOKEN),
  };

  const linkIds: Ids = [...links, ...opened].map((link) => ({ id: link.id }));
  const openedIds: Ids = opened.map((link) => ({ id: link.id }));
  const flowPath = (slug: string) => ({ workspace: ws.slug, workflow: slug, node: "webhook_1" });
  const byId = (ids: string[]): Ids => ids.map((id) => ({ id }));
  const byOperation: Record<string, Ids> = {
    "/v1/widget/launches/{id}": linkIds,
    "/v1/widget/launches/{id}/end": openedIds,
    "/v1/manage/links/{id}": linkIds,
    "/v1/manage/links/{id}/end": openedIds,
    "PATCH /v1/manage/members/{id}": byId(changedMembers),
    "DELETE /v1/manage/members/{id}": byId(victimMembers),
    "/v1/manage/widget-keys/{id}": byId(victimKeys),
    "GET /v1/manage/agents/{id}": byId([ws.agentId, otherAgent]),
    "PATCH /v1/manage/agents/{id}": byId([otherAgent]),
    "DELETE /v1/manage/agents/{id}": byId(victimAgents),
    "/v1/manage/agents/{id}/channels": byId([ws.agentId, otherAgent]),
    "/v1/manage/agents/{id}/channels/{channelId}/preview-link": [
      { id: ws.agentId, channelId: ws.channelId },
    ],
    "PATCH /v1/manage/agents/{id}/channels/{channelId}": [
      { id: otherAgent, channelId: patchedChannel },
    ],
    "/v1/widget/erasures/{id}": byId([erasure]),
    "/v1/manage/erasures/{id}": byId([erasure]),
    "/v1/operator/reseal/{id}": byId([reseal]),
    "DELETE /v1/operator/workspaces/{id}": byId(victimWorkspaces),
    "/v1/manage/secrets/{name}": [{ name: "FUZZ" }],
    "GET /v1/manage/workflows/{id}": byId([flow.id, lastFlow.id, editFlow.id]),
    "PUT /v1/manage/workflows/{id}": byId([editFlow.id]),
    "DELETE /v1/manage/workflows/{id}": byId(victimFlows),
    "/v1/manage/workflows/{id}/start": byId([editFlow.id]),
    "/v1/manage/workflows/{id}/stop": byId([editFlow.id]),
    "/v1/manage/workflows/{id}/executions": byId([flow.id, lastFlow.id]),
    "/v1/manage/workflows/{id}/executions/replay": byId([flow.id, lastFlow.id]),
    "/v1/manage/workflows/{id}/executions/{executionId}": [
      ...executions.map((executionId) => ({ id: flow.id, executionId })),
      ...lastRuns.data.map((run) => ({ id: lastFlow.id, executionId: run.id })),
    ],
    "/v1/manage/workflows/{id}/requests": byId([flow.id, lastFlow.id]),
    "/v1/manage/workflows/{id}/requests/{requestId}": logged.data.map((r) => ({
      id: flow.id,
      requestId: r.id,
    })),
    // Arming another workflow's test URL: the armed one stays armed for the test URL's calls.
    "/v1/manage/workflows/{id}/nodes/{key}/capture": [{ id: lastFlow.id, key: "webhook_1" }],
    "/v1/manage/workflows/{id}/nodes/{key}/samples": [{ id: flow.id, key: "webhook_1" }],
    // A test run of lastFlow's execution's call (docs/webhooks.md#test-runs).
    "/v1/manage/workflows/{id}/nodes/{key}/test-runs": [{ id: lastFlow.id, key: "webhook_1" }],
    "/v1/manage/passkeys/{id}": byId(victimPasskeys),
    "GET /v1/manage/event-endpoints/{id}": byId([endpoint, changed]),
    "PATCH /v1/manage/event-endpoints/{id}": byId([changed]),
    "DELETE /v1/manage/event-endpoints/{id}": byId(victimEndpoints),
    "/v1/manage/event-endpoints/{id}/rotate-secret": byId([endpoint]),
    "/v1/manage/event-endpoints/{id}/deliveries": byId([endpoint]),
    "/v1/manage/event-endpoints/{id}/deliveries/{deliveryId}/resend": [
      { id: endpoint, deliveryId: delivery },
    ],
    "/v1/manage/event-endpoints/{id}/recover": byId([endpoint]),
    "/v1/manage/event-endpoints/{id}/test": byId([endpoint]),
    "/webhooks/{workspace}/{workflow}/{node}": [flowPath(flow.slug), flowPath(lastFlow.slug)],
    "/webhooks/results/{executionId}": [
      { executionId: new URL(held.error.resultUrl).pathname.split("/").at(-1) as string },
    ],
    "/webhook-test/{workspace}/{workflow}/{node}": [flowPath(flow.slug)],
    "/v1/chat/sessions/{sessionId}/socket": [{ sessionId: chat.sessionId }],
  };
  // Executions of the replay route: the same pairs as the read.
  byOperation["/v1/manage/workflows/{id}/executions/{executionId}/replay"] = byOperation[
    "/v1/manage/workflows/{id}/executions/{executionId}"
  ] as Ids;

  const pools = {
    agentId: ws.agentId,
    otherAgentId: otherAgent,
    channelId: ws.channelId,
    memberIds: [ws.ownerId, ...changedMembers],
    // The first chat link is the socket tickets' own, so the fuzz's opens never rate-limit them.
    chatTokens: chatLinks.slice(1).map((link) => link.token),
    echoUrl: ECHO_URL,
    secretName: "FUZZ",
    now,
  };
  const cookieOf = (value: string) => `${SIGN_IN.cookie}=${value}`;
  const signOut = (op: Operation) => op.key === "DELETE /v1/manage/sessions";
  return {
    gen: new SchemaArbitraries(document.components.schemas, fuzzHints(pools)),
    widgetKey: ws.widgetKey,
    operatorToken: OPERATOR_TOKEN,
    resultToken: held.error.resultToken,
    member: (op) =>
      signOut(op)
        ? { token: leaver.memberToken, cookie: cookieOf(leaverCookie) }
        : { token: owner, cookie: cookieOf(ownerCookie) },
    pathValues: (op) => byOperation[op.key] ?? byOperation[op.path] ?? [],
    queryValues: (op): Record<string, string[]> => {
      const cursor = cursors[op.path];
      return cursor ? { cursor: [cursor] } : {};
    },
    bodies: knownBodies(pools, {
      linkToken: chatLinks[1]?.token as string,
      editedSlug: editFlow.slug,
      testRunOf: lastRuns.data[0]?.id as string,
      ratingTokens: ended.map((link) => link.token),
    }),
    live: (op) =>
      op.key === "GET /v1/chat/sessions/{sessionId}/socket"
        ? "ticket"
        : op.key === "POST /v1/manage/passkeys"
          ? "passkey"
          : undefined,
    async resolve(draft) {
      if (draft.live === "ticket") {
        // A ticket lives 60 s: each socket call opens the session again for a fresh one.
        const socketUrl = (await open(chatLinks[0]?.token as string)).socketUrl as string;
        const url = new URL(socketUrl);
        return {
          ...draft,
          path: `${url.pathname}${url.search}`,
          headers: { ...draft.headers, upgrade: "websocket" },
        };
      }
      if (draft.live === "passkey") {
        const name = (JSON.parse(draft.body ?? "{}") as { name?: string }).name;
        return { ...draft, body: JSON.stringify(await passkeyRegistration(owner, name)) };
      }
      return draft;
    },
  };
}
