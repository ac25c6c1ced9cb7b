/**
 * A local HTTP server for the http_request node's real fetches in tests, started by vitest.config.ts
 * on 127.0.0.1 (random port) and handed to the Worker as the ECHO_URL binding.
 *
 * - `/echo…`           200 JSON `{method, path, headers, body}` of the request
 * - `/status/<code>`   that status, JSON `{status}`
 * - `/text`            200 text/plain `plain words`
 * - `/hits/<id>`       200 JSON `{hits}`: how many requests `/count/<id>` and `/hold/<id>` received
 * - `/count/<id>`      counts a hit, 200 JSON `{hits}`
 * - `/hold/<id>`       counts a hit and answers only after `/release/<id>` (then 200 `{released:true}`)
 * - `/hops/<n>`        n > 0: 302 to `/hops/<n-1>` (keeping the query); 0: as `/echo`
 * - `/redirect/<code>` that status with `Location: <?to>`
 */
import http from "node:http";

export function startEchoServer() {
  const hits = new Map();
  const held = new Map();
  const released = new Set();
  const received = new Map();
  const count = (id) => {
    hits.set(id, (hits.get(id) ?? 0) + 1);
    return hits.get(id);
  };
  const server = http.createServer((request, response) => {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      const url = new URL(request.url ?? "/", "http://127.0.0.1");
      const [, route, id = ""] = url.pathname.split("/");
      const json = (status, value) => {
        response.writeHead(status, { "content-type": "application/json", "x-echo": "yes" });
        response.end(JSON.stringify(value));
      };
      const echoed = () =>
        json(200, {
          method: request.method,
          path: url.pathname + url.search,
          headers: request.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        });
      switch (route) {
        case "echo":
          return echoed();
        case "hops": {
          const left = Number(id);
          if (left > 0) {
            response.writeHead(302, { location: `/hops/${left - 1}${url.search}` });
            return response.end();
          }
          return echoed();
        }
        case "redirect":
          response.writeHead(Number(id) || 302, { location: url.searchParams.get("to") ?? "/" });
          return response.end();
        case "status":
          return json(Number(id) || 500, { status: Number(id) || 500 });
        case "text":
          response.writeHead(200, { "content-type": "text/plain" });
          return response.end("plain words");
        case "hits":
          return json(200, { hits: hits.get(id) ?? 0 });
        case "count":
          return json(200, { hits: count(id) });
        case "hold": {
          count(id);
          if (released.has(id)) return json(200, { released: true });
          const waiting = held.get(id) ?? [];
          waiting.push(() => json(200, { released: true }));
          held.set(id, waiting);
          return;
        }
        case "receiver": {
          const list = received.get(id) ?? [];
          list.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
          received.set(id, list);
          const fail = Number(url.searchParams.get("fail") ?? 0);
          return list.length <= fail
            ? json(500, { error: "failing on purpose" })
            : json(200, { received: list.length });
        }
        case "received":
          return json(200, received.get(id) ?? []);
        case "release":
          released.add(id);
          for (const answer of held.get(id) ?? []) answer();
          held.delete(id);
          return json(200, { released: true });
        default:
          return json(404, { error: "no such route" });
      }
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      server.unref();
      resolve({ url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() });
    });
  });
}
