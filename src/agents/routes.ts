/** Agents and widget channels: `/v1/manage/agents[/{id}[/channels]]` (docs/api/manage.md). */

import { audited } from "../audit";
import type { MemberEnv } from "../auth";
import { changeRoute, createdRoute, removalRoute, writerWithJson } from "../auth";
import { database } from "../db/database";
import { linkLedger } from "../launch/ledger/client";
import { createRouter } from "../platform/app";
import type { AppBindings } from "../platform/env";
import { answers, IdParamSchema, jsonRequest, operations, readRoute } from "../platform/openapi";
import { baseUrl } from "../platform/origins";
import { listQuery, pageRoute, pageSchema } from "../platform/paging";
import {
  createAgent,
  createChannel,
  deleteAgent,
  getAgent,
  listAgents,
  listChannels,
  updateAgent,
  updateChannel,
} from "./agents";
import { channelSchemas } from "./channel-schemas";
import { AgentSchema, CreateAgentSchema, UpdateAgentSchema } from "./schemas";

const op = operations("Agents", "memberToken");

const forget = (env: AppBindings, workspaceId: string) => (agentId: string) =>
  linkLedger(env, workspaceId).forgetAgent(agentId);

/**
 * Agents and their channels: a router built by the full app on first use, never at start-up
 * (src/routes.ts).
 */
export function agentsRouter() {
  const { ChannelParamsSchema, ChannelSchema, CreateChannelSchema, UpdateChannelSchema } =
    channelSchemas();
  const PageQuerySchema = listQuery();
  const router = createRouter<MemberEnv>();

  router.openapi(
    createdRoute(
      "agent.created",
      "agent",
      op("post", "/v1/manage/agents", "createAgent", "Create an agent"),
      65_536,
      CreateAgentSchema,
      answers(201, AgentSchema, "Created"),
    ),
    async (c) =>
      c.json(
        await createAgent(database(c.env), c.get("member").workspaceId, c.req.valid("json")),
        201,
      ),
  );

  router.openapi(
    pageRoute(
      op("get", "/v1/manage/agents", "listAgents", "List agents"),
      "AgentList",
      AgentSchema,
      "Agents, oldest first",
    ),
    async (c) =>
      c.json(
        await listAgents(database(c.env), c.get("member").workspaceId, c.req.valid("query")),
        200,
      ),
  );

  router.openapi(
    readRoute(
      op("get", "/v1/manage/agents/{id}", "getAgent", "Read an agent"),
      AgentSchema,
      "The agent",
      "not_found",
    ),
    async (c) =>
      c.json(
        await getAgent(database(c.env), c.get("member").workspaceId, c.req.valid("param").id),
        200,
      ),
  );

  router.openapi(
    changeRoute(
      "agent.updated",
      "agent",
      op("patch", "/v1/manage/agents/{id}", "updateAgent", "Change an agent"),
      65_536,
      UpdateAgentSchema,
      AgentSchema,
      "The changed agent",
      "not_found",
    ),
    async (c) => {
      const { workspaceId } = c.get("member");
      return c.json(
        await updateAgent(
          database(c.env),
          forget(c.env, workspaceId),
          workspaceId,
          c.req.valid("param").id,
          c.req.valid("json"),
        ),
        200,
      );
    },
  );

  router.openapi(
    removalRoute(
      "agent.deleted",
      "agent",
      op("delete", "/v1/manage/agents/{id}", "deleteAgent", "Delete an agent and its channels"),
      "Deleted",
      "not_found",
    ),
    async (c) => {
      const { workspaceId } = c.get("member");
      await deleteAgent(
        database(c.env),
        forget(c.env, workspaceId),
        workspaceId,
        c.req.valid("param").id,
      );
      return c.body(null, 204);
    },
  );

  router.openapi(
    audited(
      "channel.created",
      { target: ["channel", "response:id"] },
      {
        ...op("post", "/v1/manage/agents/{id}/channels", "createChannel", "Add a widget channel"),
        middleware: writerWithJson(65_536),
        request: { params: IdParamSchema, body: jsonRequest(CreateChannelSchema) },
        responses: answers(201, ChannelSchema, "Created", "not_found"),
      },
    ),
    async (c) => {
      const channel = await createChannel(
        database(c.env),
        c.get("member").workspaceId,
        c.req.valid("param").id,
        c.req.valid("json"),
        baseUrl(c.env, c.req.url),
      );
      return c.json(channel, 201);
    },
  );

  router.openapi(
    {
      ...op("get", "/v1/manage/agents/{id}/channels", "listChannels", "List an agent's channels"),
      request: { params: IdParamSchema, query: PageQuerySchema },
      responses: answers(
        200,
        pageSchema("ChannelList", ChannelSchema),
        "Channels, oldest first",
        "not_found",
      ),
    },
    async (c) => {
      const page = await listChannels(
        database(c.env),
        c.get("member").workspaceId,
        c.req.valid("param").id,
        baseUrl(c.env, c.req.url),
        c.req.valid("query"),
      );
      return c.json(page, 200);
    },
  );

  router.openapi(
    audited(
      "channel.updated",
      { target: ["channel", "param:channelId"] },
      {
        ...op(
          "patch",
          "/v1/manage/agents/{id}/channels/{channelId}",
          "updateChannel",
          "Change a widget channel: its name or the sites that may embed it",
        ),
        middleware: writerWithJson(65_536),
        request: { params: ChannelParamsSchema, body: jsonRequest(UpdateChannelSchema) },
        responses: answers(200, ChannelSchema, "The changed channel", "not_found"),
      },
    ),
    async (c) => {
      const { id, channelId } = c.req.valid("param");
      const channel = await updateChannel(
        database(c.env),
        c.get("member").workspaceId,
        id,
        channelId,
        c.req.valid("json"),
        baseUrl(c.env, c.req.url),
      );
      return c.json(channel, 200);
    },
  );

  return router;
}
