/**
 * Ratings after the end (docs/api/conversations.md#rating): `POST /v1/chat/rating` kept once,
 * counted with the link's opens (429 before the conversation's own refusals), refused before the end, for revoked or expired links, for bad input and on channels that ask
 * for none; recorded as `conversation.rated` to endpoints, a `conversation_event` trigger, the
 * session answer and the members' link look-up.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, eventually, expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import { connect, createLaunch, open, openSession } from "../helpers/chat";
import { eventsOfTypes, registerReceiver } from "../helpers/events";
import { createWorkflow, type ExecutionView } from "../helpers/workflows";

type ErrorBody = { error: { code: string; details: Record<string, unknown>[] } };
type SessionRating = { rating: { enabled: boolean; score: number | null; ratedAt: string | null } };

const rate = (body: Record<string, unknown>) => call("POST", "/v1/chat/rating", { body });

/** A link whose conversation the person opened and ended. */
async function endedLink(ws: Workspace): Promise<{ id: string; token: string }> {
  const link = await createLaunch(ws);
  const client = await connect((await open(link.token)).socketUrl as string);
  client.send({ type: "end" });
  await client.next("ended");
  return link;
}

async function refusal(response: Response, status: number): Promise<ErrorBody["error"]> {
  return (await expectJson<ErrorBody>(response, status)).error;
}

async function executions(ws: Workspace, workflowId: string): Promise<ExecutionView[]> {
  const page = await expectJson<{ data: ExecutionView[] }>(
    await call("GET", `/v1/manage/workflows/${workflowId}/executions`, { token: ws.ownerToken }),
    200,
  );
  return page.data;
}

describe("POST /v1/chat/rating", () => {
  it("rates an ended conversation once: 201, conversation.rated, a trigger, the session and the link page", async () => {
    const ws = await seedWorkspace();
    const receiver = await registerReceiver(ws);
    const flow = await createWorkflow(ws, {
      nodes: [
        { type: "conversation_event", agentId: ws.agentId, events: ["conversation.rated"] },
        {
          key: "note",
          type: "set",
          fields: { score: "{{conversation_event_1.rating.score}}" },
        },
      ],
      connections: [{ from: "conversation_event_1", to: "note" }],
    });
    // The trigger's default events stay the two of before: it never hears a rating.
    const defaults = await createWorkflow(ws, {
      nodes: [{ type: "conversation_event", agentId: ws.agentId }],
    });
    const link = await endedLink(ws);
    expect((await expectJson<SessionRating>(await openSession(link.token), 200)).rating).toEqual({
      enabled: true,
      score: null,
      ratedAt: null,
    });

    const rated = await expectJson<{ score: number; comment: string | null; ratedAt: string }>(
      await rate({ token: link.token, score: 4, comment: "  Quick and clear.  " }),
      201,
    );
    expect(rated).toMatchObject({ score: 4, comment: "Quick and clear." });
    expect(rated.ratedAt).toMatch(/Z$/);

    const twice = await refusal(await rate({ token: link.token, score: 1 }), 409);
    expect(twice.code).toBe("already_rated");

    const events = await eventsOfTypes(receiver, ["conversation.rated"], 20_000);
    const event = events.get("conversation.rated");
    expect(event?.data).toMatchObject({
      link: { id: link.id, status: "ended" },
      conversation: { status: "ended" },
      rating: { score: 4, comment: "Quick and clear.", ratedAt: rated.ratedAt },
    });

    const runs = await eventually(async () => {
      const list = await executions(ws, flow.id);
      return list.length === 1 ? list : undefined;
    });
    expect(runs[0]?.nodes[0]?.output).toMatchObject({
      event: "conversation.rated",
      launchId: link.id,
      rating: { score: 4, comment: "Quick and clear.", ratedAt: rated.ratedAt },
    });
    expect(runs[0]?.nodes[1]?.output).toEqual({ score: 4 });
    // The default trigger heard started and ended, not the rating.
    const heard = await executions(ws, defaults.id);
    expect(
      heard.map((run) => (run.nodes[0]?.output as { event?: string } | undefined)?.event).sort(),
    ).toEqual(["conversation.ended", "conversation.started"]);

    // A reload shows it done; the members' look-up shows it.
    const session = await expectJson<SessionRating>(await openSession(link.token), 200);
    expect(session.rating).toEqual({ enabled: true, score: 4, ratedAt: rated.ratedAt });
    const detail = await eventually(async () => {
      const body = await expectJson<{ conversation: { rating: unknown } }>(
        await call("GET", `/v1/manage/links/${link.id}`, { token: ws.ownerToken }),
        200,
      );
      return body.conversation.rating ? body : undefined;
    });
    expect(detail.conversation.rating).toEqual({
      score: 4,
      comment: "Quick and clear.",
      ratedAt: rated.ratedAt,
    });
  }, 40_000);

  it("is refused before the end: 409 conversation_not_ended, for an unopened link and an open chat", async () => {
    const ws = await seedWorkspace();
    const link = await createLaunch(ws);
    expect((await refusal(await rate({ token: link.token, score: 5 }), 409)).code).toBe(
      "conversation_not_ended",
    );
    await open(link.token);
    expect((await refusal(await rate({ token: link.token, score: 5 }), 409)).code).toBe(
      "conversation_not_ended",
    );
    // Ended by the customer's server: now it may be rated.
    const ended = await call("POST", `/v1/widget/launches/${link.id}/end`, { token: ws.widgetKey });
    expect(ended.status).toBeLessThan(300);
    expect((await rate({ token: link.token, score: 5 })).status).toBe(201);
  });

  it("counts every call with the opens before looking at the conversation: 429 wins over already_rated", async () => {
    const ws = await seedWorkspace();
    const link = await endedLink(ws);
    expect((await rate({ token: link.token, score: 3 })).status).toBe(201);
    const answers: string[] = [];
    // The open and the rating counted 2 of the 30 allowed in 60 s; the 31st call is refused.
    for (let i = 0; i < 30; i++) {
      const response = await rate({ token: link.token, score: 3 });
      answers.push(`${response.status} ${(await response.json<ErrorBody>()).error.code}`);
    }
    expect(answers.slice(0, 28)).toEqual(Array(28).fill("409 already_rated"));
    expect(answers.slice(28)).toEqual(["429 rate_limited", "429 rate_limited"]);
  });

  it("is refused for revoked and expired links (403 link_unavailable) and unknown tokens (404)", async () => {
    const ws = await seedWorkspace();
    const revoked = await endedLink(ws);
    await call("DELETE", `/v1/widget/launches/${revoked.id}`, { token: ws.widgetKey });
    const gone = await refusal(await rate({ token: revoked.token, score: 3 }), 403);
    expect(gone).toMatchObject({ code: "link_unavailable", details: [{ reason: "revoked" }] });

    const expired = await endedLink(ws);
    await env.DB.prepare("UPDATE links SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1_000, expired.id)
      .run();
    const late = await refusal(await rate({ token: expired.token, score: 3 }), 403);
    expect(late).toMatchObject({ code: "link_unavailable", details: [{ reason: "expired" }] });

    expect((await refusal(await rate({ token: "no-such-token", score: 3 }), 404)).code).toBe(
      "not_found",
    );
  });

  it("refuses a bad score or comment with 400 invalid_request listing each problem", async () => {
    const ws = await seedWorkspace();
    const link = await endedLink(ws);
    for (const score of [0, 6, 3.5, "4"]) {
      const error = await refusal(await rate({ token: link.token, score }), 400);
      expect(error.code).toBe("invalid_request");
      expect(error.details.map((detail) => detail.field)).toEqual(["score"]);
    }
    const both = await refusal(
      await rate({ token: link.token, score: 9, comment: "x".repeat(1_001), extra: true }),
      400,
    );
    expect(both.details.map((detail) => detail.field).sort()).toEqual([
      "comment",
      "extra",
      "score",
    ]);
    // 1,000 characters fit; nothing was kept by the refusals.
    const kept = await rate({ token: link.token, score: 2, comment: "y".repeat(1_000) });
    expect(kept.status).toBe(201);
  });

  it("on a channel with rating false: the session says disabled and a rating is 409 rating_disabled", async () => {
    const ws = await seedWorkspace();
    const channel = await expectJson<{ rating: boolean }>(
      await call("PATCH", `/v1/manage/agents/${ws.agentId}/channels/${ws.channelId}`, {
        token: ws.ownerToken,
        body: { rating: false },
      }),
      200,
    );
    expect(channel.rating).toBe(false);
    const link = await endedLink(ws);
    const session = await expectJson<SessionRating>(await openSession(link.token), 200);
    expect(session.rating.enabled).toBe(false);
    expect((await refusal(await rate({ token: link.token, score: 5 }), 409)).code).toBe(
      "rating_disabled",
    );
    // A new channel asks for ratings unless told otherwise.
    const created = await expectJson<{ rating: boolean }>(
      await call("POST", `/v1/manage/agents/${ws.agentId}/channels`, {
        token: ws.ownerToken,
        body: { type: "widget", name: "Shop" },
      }),
      201,
    );
    expect(created.rating).toBe(true);
  });
});
