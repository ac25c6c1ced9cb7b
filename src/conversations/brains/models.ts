/**
 * Streaming model brains (docs/api/conversations.md#replies): Workers AI and any OpenAI-compatible
 * endpoint, decoded by `openai`'s `Stream`; the POST is ours (why: docs/architecture.md#conversation).
 */
import { APIError } from "openai/core/error";
import { Stream } from "openai/core/streaming";
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
} from "openai/resources/chat/completions";
import type { AiRunner } from "../../platform/env";
import type { ConversationContext } from "../conversation/contract";
import { analysisJsonSchema, analysisMessages, parseAnalysis } from "./analysis-prompt";
import { type ChatMessage, chatMessages } from "./prompt";
import { streamReply } from "./stream-reply";
import type { AgentBrain, AnalysisRequest, RawAnalysis } from "./types";

/** Workers AI model used when the agent names none. */
export const DEFAULT_MODEL = "@cf/meta/llama-3.1-8b-instruct";

/**
 * A brain whose replies stream from a model: `stream` gives the reply's text pieces, `reply` turns
 * them into the reply (`streamReply`), the request aborted with `signal`.
 */
abstract class StreamingBrain {
  readonly reply: AgentBrain["reply"] = async (context, history, onDelta, signal) => {
    const messages = chatMessages(context, history);
    const pieces = await this.stream({ context, messages, controller: abortWith(signal) });
    return streamReply(pieces, onDelta);
  };

  /** The reply's text pieces, from a request that `controller` aborts. */
  protected abstract stream(call: StreamCall): Promise<AsyncIterable<string>>;
}

/** What a streaming brain's `stream` is given: the conversation, its messages, the abort. */
type StreamCall = {
  context: ConversationContext;
  messages: ChatMessage[];
  controller: AbortController;
};

/** Replies through Workers AI: the agent's model, streamed. */
export class WorkersAiBrain extends StreamingBrain implements AgentBrain {
  readonly kind = "workers-ai";

  constructor(private readonly ai: AiRunner) {
    super();
  }

  protected async stream({ context, messages, controller }: StreamCall) {
    const model = context.agent.model ?? DEFAULT_MODEL;
    const body = await this.ai.run(model, { messages, stream: true });
    if (!(body instanceof ReadableStream)) throw new Error(`${model} did not stream its reply`);
    const events = Stream.fromSSEResponse<{ response?: unknown }>(new Response(body), controller);
    return pieces(events, (event) => event.response);
  }

  /** One call in Workers AI's JSON mode (`response_format` with the fields' JSON schema). */
  async analyze(request: AnalysisRequest, signal: AbortSignal): Promise<RawAnalysis> {
    const model = request.context.agent.model ?? DEFAULT_MODEL;
    const answer = this.ai.run(model, {
      messages: analysisMessages(request),
      response_format: { type: "json_schema", json_schema: analysisJsonSchema(request.settings) },
    });
    const body = (await Promise.race([answer, aborted(signal)])) as { response?: unknown };
    return parseAnalysis(body?.response);
  }
}

/** Where and as whom an OpenAI-compatible endpoint is called (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL). */
export type OpenAiCompatibleConfig = { baseUrl: string; apiKey: string; model: string };

/** Replies through an OpenAI-compatible `POST {baseUrl}/chat/completions`, streamed. */
export class OpenAiCompatibleBrain extends StreamingBrain implements AgentBrain {
  readonly kind = "openai";

  constructor(private readonly config: OpenAiCompatibleConfig) {
    super();
  }

  protected async stream({ messages, controller }: StreamCall) {
    const params: ChatCompletionCreateParamsStreaming = {
      model: this.config.model,
      messages,
      stream: true,
    };
    const response = await this.post(params, "text/event-stream", controller);
    const events = Stream.fromSSEResponse<ChatCompletionChunk>(response, controller);
    return pieces(events, (chunk) => chunk.choices[0]?.delta?.content);
  }

  /** One unstreamed call with `response_format: json_schema` (the fields' schema, strict). */
  async analyze(request: AnalysisRequest, signal: AbortSignal): Promise<RawAnalysis> {
    const params = {
      model: this.config.model,
      messages: analysisMessages(request),
      response_format: {
        type: "json_schema",
        json_schema: {
          name: "conversation_analysis",
          schema: analysisJsonSchema(request.settings),
          strict: true,
        },
      },
    };
    const response = await this.post(params, "application/json", abortWith(signal));
    const body = (await response.json()) as ChatCompletion;
    return parseAnalysis(body.choices[0]?.message?.content);
  }

  /** POSTs to `{baseUrl}/chat/completions`. @throws APIError for a status other than 2xx */
  private async post(
    params: object,
    accept: string,
    controller: AbortController,
  ): Promise<Response> {
    const response = await fetch(`${this.config.baseUrl.replace(/\/+$/, "")}/chat/completions`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${this.config.apiKey}`,
        "content-type": "application/json",
        accept,
      },
      body: JSON.stringify(params),
      signal: controller.signal,
    });
    if (!response.ok) {
      const text = await response.text().catch(() => "");
      const error = parseJson(text) as { error?: object } | undefined;
      throw APIError.generate(response.status, error?.error ?? error, text, response.headers);
    }
    return response;
  }
}

/** The text pieces of a stream of events, as `text` finds them in each. */
async function* pieces<T>(events: AsyncIterable<T>, text: (event: T) => unknown) {
  for await (const event of events) {
    const piece = text(event);
    if (typeof piece === "string") yield piece;
  }
}

/** A controller of the request that aborts with `signal` (the reply's deadline). */
function abortWith(signal: AbortSignal): AbortController {
  const controller = new AbortController();
  if (signal.aborted) controller.abort(signal.reason);
  else signal.addEventListener("abort", () => controller.abort(signal.reason), { once: true });
  return controller;
}

/** Rejects when `signal` aborts (a model call that cannot be cancelled still loses the race). */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
