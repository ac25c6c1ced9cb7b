// A stand-in mailer for `npm run dev` and the browser story (README "Payment failed"): the demo
// "Payment failed" workflow's http_request node posts the message it would e-mail here. It binds
// 127.0.0.1 on a free port, prints each message on one line and keeps the last 100 for
// `GET /messages` (newest last), so a test reads the link as a person would find it in their inbox.
import { createServer } from "node:http";

/** How many messages are kept; older ones are dropped. */
const KEPT = 100;
/** The largest message body read (bytes); larger posts are refused with 413. */
const MAX_BODY_BYTES = 64 * 1024;

/**
 * @typedef {{ to: string, subject: string, text: string, receivedAt: string }} Mail
 * @typedef {{ url: string, messages: Mail[], stop: () => Promise<void> }} StandInMailer
 */

/**
 * Starts the mailer. `POST /` with a JSON body `{to, subject, text}` answers 202 and keeps it;
 * `GET /messages` answers the kept messages as JSON.
 * @param {{ print?: (line: string) => void }} [options] where each message's line goes (none by default)
 * @returns {Promise<StandInMailer>} `url`: `http://127.0.0.1:<port>/`
 */
export async function startStandInMailer(options = {}) {
  /** @type {Mail[]} */
  const messages = [];
  const server = createServer((req, res) => {
    if (req.method === "GET" && req.url === "/messages") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(messages));
      return;
    }
    if (req.method !== "POST") {
      res.writeHead(405, { allow: "GET, POST" }).end();
      return;
    }
    const chunks = [];
    let size = 0;
    req.on("data", (chunk) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on("end", () => {
      if (size > MAX_BODY_BYTES) return void res.writeHead(413).end();
      let mail;
      try {
        mail = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        return void res.writeHead(400).end("The body is not JSON.");
      }
      const kept = {
        to: String(mail?.to ?? ""),
        subject: String(mail?.subject ?? ""),
        text: String(mail?.text ?? ""),
        receivedAt: new Date().toISOString(),
      };
      messages.push(kept);
      if (messages.length > KEPT) messages.shift();
      options.print?.(`[mailer] To ${kept.to}: ${kept.subject}\n${kept.text}`);
      res.writeHead(202, { "content-type": "application/json" }).end('{"queued":true}');
    });
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(undefined));
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    messages,
    stop: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}
