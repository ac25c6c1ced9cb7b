/**
 * Streaming model brains (docs/api/conversations.md#replies): Workers AI and any OpenAI-compatible
 * endpoint, their server-sent events read by `readEventStream` as `openai`'s `Stream` reads them;
 * errors are the package's `APIError`, and the POST is ours (why: docs/architecture.md#conversation).
 */
import { APIError, OpenAIError } from "openai/core/error";
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
} from "openai/resources/chat/completions";
import type { AiRunner } from "../../platform/env";
import type { ConversationContext } from "../conversation/contract";
import { analysisJsonSchema, analysisMessages, parseAnalysis } from "./analysis-prompt";
import { readEventStream } from "./event-stream";
import { type ChatMessage, chatMessages } from "./prompt";
import { ReplyText } from "./stream-reply";
import type { AgentBrain, AnalysisRequest, RawAnalysis } from "./types";

/** Workers AI model used when the agent names none. */
export const DEFAULT_MODEL = "@cf/meta/llama-3.1-8b-instruct";

/**
 * A brain whose replies stream from a model: `stream` hands the reply's text pieces over as they
 * come, `reply` turns them into the reply (`ReplyText`), the request aborted with `signal`.
 */
abstract class StreamingBrain {
  readonly reply: AgentBrain["reply"] = async (context, history, onDelta, signal) => {
    const messages = chatMessages(context, history);
    const reply = new ReplyText(onDelta);
    await this.stream({ context, messages, signal }, (piece) => reply.push(piece));
    return reply.finish();
  };

  /** Streams the reply's text pieces to `piece`, from a request that `signal` aborts. */
  protected abstract stream(call: StreamCall, piece: (text: string) => void): Promise<void>;
}

/** What a streaming brain's `stream` is given: the conversation, its messages, the abort. */
type StreamCall = { context: ConversationContext; messages: ChatMessage[]; signal: AbortSignal };

/** Hands `text(item)` to `piece` when it is a string. */
const pieces =
  <T>(text: (item: T) => unknown, piece: (text: string) => void) =>
  (item: unknown) => {
    const found = text(item as T);
    if (typeof found === "string") piece(found);
  };

/** Replies through Workers AI: the agent's model, streamed. */
export class WorkersAiBrain extends StreamingBrain implements AgentBrain {
  readonly kind = "workers-ai";

  constructor(private readonly ai: AiRunner) {
    super();
  }

  protected async stream({ context, messages, signal }: StreamCall, piece: (t: string) => void) {
    const model = context.agent.model ?? DEFAULT_MODEL;
    const body = await this.ai.run(model, { messages, stream: true });
    if (!(body instanceof ReadableStream)) throw new Error(`${model} did not stream its reply`);
    // The binding takes no signal: the abort cancels the body.
    const each = pieces((event: { response?: unknown }) => event.response, piece);
    await readEventStream(body, undefined, signal, true, each);
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

  protected async stream({ messages, signal }: StreamCall, piece: (text: string) => void) {
    const params: ChatCompletionCreateParamsStreaming = {
      model: this.config.model,
      messages,
      stream: true,
    };
    const response = await this.post(params, "text/event-stream", signal);
    if (!response.body) throw new OpenAIError("Attempted to iterate over a response with no body");
    const each = pieces((chunk: ChatCompletionChunk) => chunk.choices[0]?.delta?.content, piece);
    // The fetch carries `signal`: its abort ends the body.
    await readEventStream(response.body, response.headers, signal, false, each);
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
    const response = await this.post(params, "application/json", signal);
    const body = (await response.json()) as ChatCompletion;
    return parseAnalysis(body.choices[0]?.message?.content);
  }

  /** POSTs to `{baseUrl}/chat/completions`. @throws APIError for a status other than 2xx */
  private async post(params: object, accept: string, signal: AbortSignal): Promise<Response> {
    const response = await fetch(`${this.config.baseUrl.replace(/\/+$/, "")}/chat/completions`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${this.config.apiKey}`,
        "content-type": "application/json",
        accept,
      },
      body: JSON.stringify(params),
      signal,
    });
    if (!response.ok) {
      const text = await response.text().catch(() => "");
      const error = parseJson(text) as { error?: object } | undefined;
      throw APIError.generate(response.status, error?.error ?? error, text, response.headers);
    }
    return response;
  }
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
