// The Node-RED flow the benchmark's peer runs (scripts/bench/node-red-peer.mjs writes it to the
// userDir as flows.json): the same work as our bench workflows (docs/api/webhooks.md#responses),
// built from stock nodes (http in, switch, change, http response) as a Node-RED user would.
//
// - lastNode: http in → switch (header x-webhook-secret equals the secret) → change (the set:
//   `{ok: true, orderId: <body.orderId>}`, or `{ok: false}`) → http response 200 JSON.
// - immediate: http in → change (the answer `{success: true, executionId}`) → http response, and
//   the same message, after the answer, → switch → change. Node-RED delivers each wire's message
//   in order on the event loop, so the answer is written before the check runs (n8n's "Respond
//   immediately"). The execution id is the message's `_msgid`, which Node-RED makes per call.
// - records "sqlite": a function node at the end of each run writes the record through the
//   statement prepared in settings.cjs; the lastNode route gets a change node first to note the
//   start time (the immediate route notes it in its answer's change node). "memory": no record
//   nodes at all.

/** The routes, relative to the Node-RED origin. */
export const ROUTES = Object.freeze({
  immediate: "/bench/immediate",
  lastNode: "/bench/last-node",
});
/** A GET route outside the measured flow that answers once the flows have started. */
export const READY_ROUTE = "/bench/ready";

const TAB = "bench";
const node = (id, type, fields, wires = []) => ({ id, type, z: TAB, name: "", ...fields, wires });
const httpIn = (id, url, method, next) =>
  node(id, "http in", { url, method, upload: false, skipBodyParsing: false, swaggerDoc: "" }, [
    [next],
  ]);
const httpOut = (id) => node(id, "http response", { statusCode: "200", headers: {} });
/** A change node's rule: `set msg.<p>` to a JSON literal, a message property or the time. */
const set = (p, to, tot) => ({ t: "set", p, pt: "msg", to, tot });
/** A change node whose one output is wired to the nodes named in `next`. */
const change = (id, rules, next) => node(id, "change", { rules }, [next]);

/** The function node that writes one record; it passes the message on unchanged. */
function record(id, route, next) {
  const func = `global.get("recordInsert").run(msg._msgid, ${JSON.stringify(route)}, "succeeded",
  msg.startedAt, Date.now(), JSON.stringify(msg.input ?? null), JSON.stringify(msg.payload));
return msg;`;
  const fields = { func, outputs: 1, timeout: 0, noerr: 0, initialize: "", finalize: "", libs: [] };
  return node(id, "function", fields, [next ? [next] : []]);
}

/** The check: output 1 when the header equals the secret, output 2 otherwise (a missing header). */
function secretCheck(id, secret, whenRight, whenWrong) {
  const fields = {
    property: 'req.headers["x-webhook-secret"]',
    propertyType: "msg",
    rules: [{ t: "eq", v: secret, vt: "str" }, { t: "else" }],
    checkall: "false",
    repair: false,
    outputs: 2,
  };
  return node(id, "switch", fields, [[whenRight], [whenWrong]]);
}

/**
 * The set nodes: `payload` becomes the output, the body being kept as `input` (which the record
 * stores); `bodyIn` says whether the body is still in `payload` (lastNode) or already in `input`.
 */
function setNodes(prefix, bodyIn, next) {
  const keepInput = bodyIn === "payload" ? [set("input", "payload", "msg")] : [];
  const wires = next ? [next] : [];
  const ok = [
    set("payload", '{"ok":true}', "json"),
    set("payload.orderId", "input.orderId", "msg"),
  ];
  return [
    change(`${prefix}_ok`, [...keepInput, ...ok], wires),
    change(`${prefix}_refused`, [...keepInput, set("payload", '{"ok":false}', "json")], wires),
  ];
}

/**
 * The flow, as Node-RED's flows.json array.
 * @param {{ secret: string, records: "memory" | "sqlite" }} options the shared secret the check
 *   compares the header with; whether each run ends with a record write
 * @returns {object[]} the tab and its nodes
 */
export function buildFlow({ secret, records }) {
  const withRecords = records === "sqlite";
  const startedAt = set("startedAt", "", "date");

  // lastNode: [start →] check → set → [record →] answer
  const last = [
    httpIn("last_in", ROUTES.lastNode, "post", withRecords ? "last_start" : "last_check"),
    secretCheck("last_check", secret, "last_ok", "last_refused"),
    ...setNodes("last", "payload", withRecords ? "last_record" : "last_answer"),
    httpOut("last_answer"),
  ];
  if (withRecords) {
    last.push(change("last_start", [startedAt], ["last_check"]));
    last.push(record("last_record", "lastNode", "last_answer"));
  }

  // immediate: answer, then check → set [→ record]
  const reply = [
    ...(withRecords ? [startedAt] : []),
    set("input", "payload", "msg"),
    set("payload", '{"success":true}', "json"),
    set("payload.executionId", "_msgid", "msg"),
  ];
  const immediate = [
    httpIn("now_in", ROUTES.immediate, "post", "now_reply"),
    change("now_reply", reply, ["now_answer", "now_check"]),
    httpOut("now_answer"),
    secretCheck("now_check", secret, "now_ok", "now_refused"),
    ...setNodes("now", "input", withRecords ? "now_record" : undefined),
  ];
  if (withRecords) immediate.push(record("now_record", "immediate"));

  const ready = [httpIn("ready_in", READY_ROUTE, "get", "ready_answer"), httpOut("ready_answer")];
  // A position makes a node a flow node: Node-RED takes nodes without x and y for config nodes.
  const placed = [last, immediate, ready].flatMap((row, y) =>
    row.map((n, x) => ({ ...n, x: 140 + 200 * x, y: 60 + 100 * y })),
  );
  return [{ id: TAB, type: "tab", label: "Benchmark peer" }, ...placed];
}
