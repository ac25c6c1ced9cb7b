/** Where an agent's replies come from (docs/api/conversations.md#replies). */
import type { AppBindings } from "../../platform/env";
import { OpenAiCompatibleBrain, WorkersAiBrain } from "./models";
import { ScriptedBrain } from "./scripted";
import type { AgentBrain } from "./types";

export { DEFAULT_MODEL, OpenAiCompatibleBrain, WorkersAiBrain } from "./models";
export { renderAgentText, systemPrompt } from "./prompt";
export { ScriptedBrain } from "./scripted";
export type * from "./types";

/**
 * The OpenAI-compatible brain when all three LLM_* are set (a deliberate choice, winning over
 * `AI`), Workers AI when bound, else the scripted one (no network, no account).
 */
export function chooseBrain(
  env: Pick<AppBindings, "AI" | "LLM_BASE_URL" | "LLM_API_KEY" | "LLM_MODEL">,
): AgentBrain {
  const { LLM_BASE_URL: baseUrl, LLM_API_KEY: apiKey, LLM_MODEL: model } = env;
  if (baseUrl && apiKey && model) return new OpenAiCompatibleBrain({ baseUrl, apiKey, model });
  return env.AI ? new WorkersAiBrain(env.AI) : new ScriptedBrain();
}
