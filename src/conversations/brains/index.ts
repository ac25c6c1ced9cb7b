/**
 * The agent brain: where an agent's replies come from (docs/api/conversations.md#replies). One
 * streaming interface, three brains: an OpenAI-compatible endpoint when LLM_BASE_URL, LLM_API_KEY
 * and LLM_MODEL are set; otherwise Workers AI when the `AI` binding is configured; otherwise a
 * deterministic scripted brain, so local development and tests need no network and no account.
 */
import type { AppBindings } from "../../platform/env";
import { OpenAiCompatibleBrain, WorkersAiBrain } from "./models";
import { ScriptedBrain } from "./scripted";
import type { AgentBrain } from "./types";

export { DEFAULT_MODEL, OpenAiCompatibleBrain, WorkersAiBrain } from "./models";
export { renderAgentText, systemPrompt } from "./prompt";
export { ScriptedBrain } from "./scripted";
export type { AgentBrain, BrainReply, DeltaSink, HistoryMessage } from "./types";

/**
 * The brain the configuration names: the OpenAI-compatible endpoint when all three LLM_* are set
 * (a deliberate choice of model, so it wins over a bound `AI`), Workers AI when bound, or scripted.
 */
export function chooseBrain(
  env: Pick<AppBindings, "AI" | "LLM_BASE_URL" | "LLM_API_KEY" | "LLM_MODEL">,
): AgentBrain {
  const { LLM_BASE_URL: baseUrl, LLM_API_KEY: apiKey, LLM_MODEL: model } = env;
  if (baseUrl && apiKey && model) return new OpenAiCompatibleBrain({ baseUrl, apiKey, model });
  return env.AI ? new WorkersAiBrain(env.AI) : new ScriptedBrain();
}
