/** Agents and widget channels: `/v1/manage/agents[/{id}[/channels]]` (docs/api/manage.md). */

import { createRoute, type z } from "@hono/zod-openapi";
import { audited } from "../audit";
import type { MemberEnv } from "../auth";
import { requireWriter } from "../auth";
import { database } from "../db/database";
import { linkLedger } from "../launch/ledger/client";
import { createRouter } from "../platform/app";
import type { AppBindings } from "../platform/env";
import { jsonBody } from "../platform/json-body";
import { errorResponses, IdParamSchema } from "../platform/openapi";
import { baseUrl } from "../platform/origins";
import { listQuery, pageSchema } from "../platform/paging";
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

const common = { tags: ["Agents"], security: [{ memberToken: [] }] };
const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});
const body = <T extends z.ZodType>(schema: T) => ({
  body: { required: true, content: { "application/json": { schema } } },
});
const write = [requireWriter, ...jsonBody(65_536)];

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
  const AgentListSchema = pageSchema("AgentList", AgentSchema);
  const router = createRouter<MemberEnv>();

  router.openapi(
    createRoute(
      audited(
        "agent.created",
        { target: ["agent", "response:id"] },
        {
          ...common,
          method: "post",
          path: "/v1/manage/agents",
          operationId: "createAgent",
          summary: "Create an agent",
          middleware: write,
          request: body(CreateAgentSchema),
          responses: { 201: json(AgentSchema, "Created"), ...errorResponses() },
        },
      ),
    ),
    async (c) =>
      c.json(
        await createAgent(database(c.env), c.get("member").workspaceId, c.req.valid("json")),
        201,
      ),
  );

  router.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/v1/manage/agents",
      operationId: "listAgents",
      summary: "List agents",
      request: { query: PageQuerySchema },
      responses: {
        200: json(AgentListSchema, "Agents, oldest first"),
        ...errorResponses(),
      },
    }),
    async (c) =>
      c.json(
        await listAgents(database(c.env), c.get("member").workspaceId, c.req.valid("query")),
        200,
      ),
  );

  router.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/v1/manage/agents/{id}",
      operationId: "getAgent",
      summary: "Read an agent",
      request: { params: IdParamSchema },
      responses: { 200: json(AgentSchema, "The agent"), ...errorResponses("not_found") },
    }),
    async (c) =>
      c.json(
        await getAgent(database(c.env), c.get("member").workspaceId, c.req.valid("param").id),
        200,
      ),
  );

  router.openapi(
    createRoute(
      audited(
        "agent.updated",
        { target: ["agent", "param:id"] },
        {
          ...common,
          method: "patch",
          path: "/v1/manage/agents/{id}",
          operationId: "updateAgent",
          summary: "Change an agent",
          middleware: write,
          request: { params: IdParamSchema, ...body(UpdateAgentSchema) },
          responses: {
            200: json(AgentSchema, "The changed agent"),
            ...errorResponses("not_found"),
          },
        },
      ),
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
    createRoute(
      audited(
        "agent.deleted",
        { target: ["agent", "param:id"] },
        {
          ...common,
          method: "delete",
          path: "/v1/manage/agents/{id}",
          operationId: "deleteAgent",
          summary: "Delete an agent and its channels",
          middleware: [requireWriter],
          request: { params: IdParamSchema },
          responses: { 204: { description: "Deleted" }, ...errorResponses("not_found") },
        },
      ),
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
    createRoute(
      audited(
        "channel.created",
        { target: ["channel", "response:id"] },
        {
          ...common,
          method: "post",
          path: "/v1/manage/agents/{id}/channels",
          operationId: "createChannel",
          summary: "Add a widget channel",
          middleware: write,
          request: { params: IdParamSchema, ...body(CreateChannelSchema) },
          responses: { 201: json(ChannelSchema, "Created"), ...errorResponses("not_found") },
        },
      ),
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
    createRoute({
      ...common,
      method: "get",
      path: "/v1/manage/agents/{id}/channels",
      operationId: "listChannels",
      summary: "List an agent's channels",
      request: { params: IdParamSchema, query: PageQuerySchema },
      responses: {
        200: json(pageSchema("ChannelList", ChannelSchema), "Channels, oldest first"),
        ...errorResponses("not_found"),
      },
    }),
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
    createRoute(
      audited(
        "channel.updated",
        { target: ["channel", "param:channelId"] },
        {
          ...common,
          method: "patch",
          path: "/v1/manage/agents/{id}/channels/{channelId}",
          operationId: "updateChannel",
          summary: "Change a widget channel: its name or the sites that may embed it",
          middleware: write,
          request: { params: ChannelParamsSchema, ...body(UpdateChannelSchema) },
          responses: {
            200: json(ChannelSchema, "The changed channel"),
            ...errorResponses("not_found"),
          },
        },
      ),
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
