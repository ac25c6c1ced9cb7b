/** Agents and widget channels: `/v1/manage/agents[/{id}[/channels]]` (contract 2). */
import { createRoute, z } from "@hono/zod-openapi";
import { drizzle } from "drizzle-orm/d1";
import { requireWriter } from "../auth/middleware";
import { workspaceLimiter } from "../launch/ledger/client";
import { createRouter } from "../platform/app";
import type { AppBindings } from "../platform/env";
import { jsonBody } from "../platform/json-body";
import { errorResponses, IdParamSchema } from "../platform/openapi";
import {
  createAgent,
  createChannel,
  deleteAgent,
  getAgent,
  listAgents,
  listChannels,
  updateAgent,
} from "./agents";
import {
  AgentSchema,
  ChannelSchema,
  CreateAgentSchema,
  CreateChannelSchema,
  UpdateAgentSchema,
} from "./schemas";

const common = { tags: ["Agents"], security: [{ memberToken: [] }] };
const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});
const body = <T extends z.ZodType>(schema: T) => ({
  body: { required: true, content: { "application/json": { schema } } },
});
const write = [requireWriter, ...jsonBody(65_536)];

export const agentsRouter = createRouter();
const forget = (env: AppBindings, workspaceId: string) => (agentId: string) =>
  workspaceLimiter(env, workspaceId).forgetAgent(agentId);
const baseUrl = (env: { BASE_URL?: string }, url: string) => env.BASE_URL || new URL(url).origin;

agentsRouter.openapi(
  createRoute({
    ...common,
    method: "post",
    path: "/v1/manage/agents",
    summary: "Create an agent",
    middleware: write,
    request: body(CreateAgentSchema),
    responses: { 201: json(AgentSchema, "Created"), ...errorResponses(400, 401, 403, 413) },
  }),
  async (c) =>
    c.json(
      await createAgent(drizzle(c.env.DB), c.get("member").workspaceId, c.req.valid("json")),
      201,
    ),
);

agentsRouter.openapi(
  createRoute({
    ...common,
    method: "get",
    path: "/v1/manage/agents",
    summary: "List agents",
    responses: {
      200: json(z.object({ data: z.array(AgentSchema) }), "Agents"),
      ...errorResponses(401, 403),
    },
  }),
  async (c) =>
    c.json({ data: await listAgents(drizzle(c.env.DB), c.get("member").workspaceId) }, 200),
);

agentsRouter.openapi(
  createRoute({
    ...common,
    method: "get",
    path: "/v1/manage/agents/{id}",
    summary: "Read an agent",
    request: { params: IdParamSchema },
    responses: { 200: json(AgentSchema, "The agent"), ...errorResponses(401, 403, 404) },
  }),
  async (c) =>
    c.json(
      await getAgent(drizzle(c.env.DB), c.get("member").workspaceId, c.req.valid("param").id),
      200,
    ),
);

agentsRouter.openapi(
  createRoute({
    ...common,
    method: "patch",
    path: "/v1/manage/agents/{id}",
    summary: "Change an agent",
    middleware: write,
    request: { params: IdParamSchema, ...body(UpdateAgentSchema) },
    responses: {
      200: json(AgentSchema, "The changed agent"),
      ...errorResponses(400, 401, 403, 404, 413),
    },
  }),
  async (c) => {
    const { workspaceId } = c.get("member");
    return c.json(
      await updateAgent(
        drizzle(c.env.DB),
        forget(c.env, workspaceId),
        workspaceId,
        c.req.valid("param").id,
        c.req.valid("json"),
      ),
      200,
    );
  },
);

agentsRouter.openapi(
  createRoute({
    ...common,
    method: "delete",
    path: "/v1/manage/agents/{id}",
    summary: "Delete an agent and its channels",
    middleware: [requireWriter],
    request: { params: IdParamSchema },
    responses: { 204: { description: "Deleted" }, ...errorResponses(401, 403, 404) },
  }),
  async (c) => {
    const { workspaceId } = c.get("member");
    await deleteAgent(
      drizzle(c.env.DB),
      forget(c.env, workspaceId),
      workspaceId,
      c.req.valid("param").id,
    );
    return c.body(null, 204);
  },
);

agentsRouter.openapi(
  createRoute({
    ...common,
    method: "post",
    path: "/v1/manage/agents/{id}/channels",
    summary: "Add a widget channel",
    middleware: write,
    request: { params: IdParamSchema, ...body(CreateChannelSchema) },
    responses: { 201: json(ChannelSchema, "Created"), ...errorResponses(400, 401, 403, 404, 413) },
  }),
  async (c) => {
    const channel = await createChannel(
      drizzle(c.env.DB),
      c.get("member").workspaceId,
      c.req.valid("param").id,
      c.req.valid("json"),
      baseUrl(c.env, c.req.url),
    );
    return c.json(channel, 201);
  },
);

agentsRouter.openapi(
  createRoute({
    ...common,
    method: "get",
    path: "/v1/manage/agents/{id}/channels",
    summary: "List an agent's channels",
    request: { params: IdParamSchema },
    responses: {
      200: json(z.object({ data: z.array(ChannelSchema) }), "Channels"),
      ...errorResponses(401, 403, 404),
    },
  }),
  async (c) => {
    const data = await listChannels(
      drizzle(c.env.DB),
      c.get("member").workspaceId,
      c.req.valid("param").id,
      baseUrl(c.env, c.req.url),
    );
    return c.json({ data }, 200);
  },
);
