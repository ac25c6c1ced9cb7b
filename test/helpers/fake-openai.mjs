/**
 * A fake OpenAI-compatible chat-completions server for the brain tests, started by
 * vitest.config.ts on 127.0.0.1 (random port) and handed to the Worker as FAKE_LLM_URL. It
 * streams server-sent events as OpenAI does (`data: {chunk}` … `data: [DONE]`).
 *
 * - `POST /<scenario>/<id>/v1/chat/completions`, scenario:
 *   - `ok`:    the pieces of REPLY, one chunk each, then `[DONE]`
 *   - `cut`:   the first two pieces, then the connection is destroyed midway
 *   - `error`: 401 with OpenAI's error body
 *   - `json`:  one unstreamed completion whose content is ANALYSIS as JSON (JSON output mode)
 * - `GET /requests/<id>`: the requests received for `id`, `{authorization, body}` each
 */
import http from "node:http";

/** What `json` answers, as the message's content. */
export const ANALYSIS = { summary: "Ada asked about her plan.", data: { plan: "pro", seats: "3" } };

/** What `ok` streams, piece by piece; it ends the conversation. */
export const REPLY = ["Hello Ada, ", "the **Pro** plan ", "is ready.", " [E", "ND]"];

export function startFakeOpenAi() {
  const requests = new Map();
  const server = http.createServer((request, response) => {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", async () => {
      const [, scenario = "", id = ""] = new URL(request.url ?? "/", "http://x").pathname.split(
        "/",
      );
      if (scenario === "requests") {
        response.writeHead(200, { "content-type": "application/json" });
        return response.end(JSON.stringify(requests.get(id) ?? []));
      }
      const list = requests.get(id) ?? [];
      list.push({
        authorization: request.headers.authorization,
        body: JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}"),
      });
      requests.set(id, list);
      if (scenario === "error") {
        response.writeHead(401, { "content-type": "application/json" });
        return response.end(
          JSON.stringify({
            error: {
              message: "Incorrect API key provided",
              type: "invalid_request_error",
              code: "invalid_api_key",
            },
          }),
        );
      }
      if (scenario === "json") {
        response.writeHead(200, { "content-type": "application/json" });
        const message = { role: "assistant", content: JSON.stringify(ANALYSIS) };
        return response.end(
          JSON.stringify({
            id: "chatcmpl-fake",
            object: "chat.completion",
            created: 1,
            model: "fake-model",
            choices: [{ index: 0, message, finish_reason: "stop" }],
          }),
        );
      }
      response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      const pieces = scenario === "cut" ? REPLY.slice(0, 2) : REPLY;
      for (const [index, content] of pieces.entries()) {
        const chunk = {
          id: "chatcmpl-fake",
          object: "chat.completion.chunk",
          created: 1,
          model: "fake-model",
          choices: [
            {
              index: 0,
              delta: index === 0 ? { role: "assistant", content } : { content },
              finish_reason: null,
            },
          ],
        };
        response.write(`data: ${JSON.stringify(chunk)}\n\n`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      if (scenario === "cut") return response.socket?.destroy();
      response.end("data: [DONE]\n\n");
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      server.unref();
      resolve({ url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() });
    });
  });
}
