/**
 * The customer's own web page, on another origin than the Worker: a plain node:http server on
 * 127.0.0.1 that serves one HTML document, so the widget script is tested embedded the way a
 * customer would embed it.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

/** A running third-party site; `close()` is safe to call more than once. */
export type ThirdPartySite = {
  /** e.g. `http://127.0.0.1:40124/` */
  url: string;
  close(): Promise<void>;
};

/**
 * Serves `html` at `/` (text/html) and 404 everywhere else, on a random free port of 127.0.0.1.
 * @param html the whole document, e.g. a page that contains the link's `embedHtml`
 */
export function startThirdPartySite(html: string): Promise<ThirdPartySite> {
  const server = http.createServer((request, response) => {
    const { pathname } = new URL(request.url ?? "/", "http://127.0.0.1");
    if (request.method === "GET" && pathname === "/") {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(html);
    } else {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
      response.end("Not found");
    }
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      let closed: Promise<void> | undefined;
      resolve({
        url: `http://127.0.0.1:${port}/`,
        close: () => {
          closed ??= new Promise<void>((done) => {
            // Keep-alive connections from the browser would otherwise hold close() open.
            server.closeAllConnections();
            server.close(() => done());
          });
          return closed;
        },
      });
    });
  });
}
