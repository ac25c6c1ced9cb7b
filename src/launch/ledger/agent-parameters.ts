/**
 * The ledger's read-through cache of agents' Initial Parameters by agent and channel
 * (docs/architecture.md#link-ledger), dropped by `forgetAgent`.
 */
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { ParameterDefinition } from "../../db/schema";
import { findAgentParameters } from "../link-rules";

/** Agents' parameter definitions by agent and channel, read through from D1. */
export class AgentParameters {
  private readonly cache = new Map<string, ParameterDefinition[]>();
  /** Bumped by every `forget` and `clear`, so a read that started before it is not cached. */
  private epoch = 0;

  constructor(private readonly db: DrizzleD1Database) {}

  /** The definitions of the agent with this widget channel; undefined when there is no such pair. */
  async get(
    workspaceId: string,
    flowId: string,
    channelId: string,
  ): Promise<ParameterDefinition[] | undefined> {
    const cacheKey = `${flowId}/${channelId}`;
    const cached = this.cache.get(cacheKey);
    if (cached) return cached;
    const epoch = this.epoch;
    const definitions = await findAgentParameters(this.db, workspaceId, flowId, channelId);
    if (definitions && epoch === this.epoch) this.cache.set(cacheKey, definitions);
    return definitions;
  }

  /** Forgets every agent's definitions (the workspace was deleted). */
  clear(): void {
    this.epoch++;
    this.cache.clear();
  }

  /** Forgets the agent's definitions after it changed or was deleted. */
  forget(agentId: string): void {
    this.epoch++;
    for (const cacheKey of this.cache.keys()) {
      if (cacheKey.startsWith(`${agentId}/`)) this.cache.delete(cacheKey);
    }
  }
}
