/**
 * Every management change is recorded (docs/security.md#audit-log): the state-changing operations
 * are read from `/openapi.json`, so a route added tomorrow is covered the day it is added. Each one
 * names its action (`x-audit-action`) or is one of the few that are not management changes (the
 * product's own traffic); then every operation of the document is called once with success, in the
 * schema fuzz's seeded workspace (test/helpers/fuzz-world.ts), and the log is read after each: a
 * change adds exactly one entry with its action, its caller, what it acted on, the caller's network
 * and user agent and nothing of the body; anything else (a read, a launch, a webhook) adds none.
 */
import { exports } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { AUDIT_ACTIONS } from "../../src/audit/actions";
import { call, expectJson, OPERATOR_TOKEN, ORIGIN } from "../helpers/api";
import { type Operation, type OperationsDocument, operationsOf } from "../helpers/fuzz-operations";
import { requestFor } from "../helpers/fuzz-requests";
import { type FuzzWorld, seedWorld } from "../helpers/fuzz-world";

/** The state-changing operations that are not management changes, and why. */
const NOT_MANAGEMENT: Record<string, string> = {
  "POST /v1/widget/launches": "the launch API's traffic: the link itself is the record",
  "DELETE /v1/widget/launches/{id}": "the launch API's traffic: the link keeps its revocation",
  "POST /v1/widget/launches/{id}/end": "the launch API's traffic: the link keeps its end",
  "POST /v1/chat/sessions": "a person opening their link",
  "POST /v1/chat/rating": "a person rating their chat: the link keeps it, with conversation.rated",
  "POST /webhooks/{workspace}/{workflow}/{node}": "a sender's call: the request log keeps it",
  "POST /webhook-test/{workspace}/{workflow}/{node}": "a sender's test call: kept as a sample",
  "POST /v1/manage/passkeys/options": "begins a ceremony; the passkey added is recorded",
};

type Doc = OperationsDocument & {
  components: { schemas: Record<string, never> };
  paths: Record<string, Record<string, { "x-audit-action"?: string }>>;
};
type Entry = {
  id: string;
  at: string;
  action: string;
  actor: { type: string; id: string; name?: string };
  target: { type: string; id: string };
  ip: string | null;
  userAgent: string | null;
};

const FROM = { "cf-connecting-ip": "198.51.100.77", "user-agent": "audit-coverage/1.0" };

let document: Doc;
let operations: Operation[];
let world: FuzzWorld;
let ownerToken: string;

const actionOf = (op: Operation) =>
  document.paths[op.path]?.[op.method.toLowerCase()]?.["x-audit-action"];

async function entries(path: string, token: string): Promise<Entry[]> {
  const page = await expectJson<{ data: Entry[] }>(
    await call("GET", `${path}?limit=100`, { token }),
    200,
  );
  return page.data;
}
const workspaceLog = (token = ownerToken) => entries("/v1/manage/audit-log", token);
const operatorLog = () => entries("/v1/operator/audit-log", OPERATOR_TOKEN);
const newer = (after: Entry[], before: Entry[]) => {
  const seen = new Set(before.map((entry) => entry.id));
  return after.filter((entry) => !seen.has(entry.id));
};

/** Every string of a JSON body, for the check that no entry holds one. */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (typeof value !== "object" || value === null) return [];
  return Object.values(value).flatMap(strings);
}

const members = new Map<string, { type: "member"; id: string; name: string }>();
/** The member a token authenticates, as an entry's actor names it. */
async function memberOf(token: string) {
  let member = members.get(token);
  if (!member) {
    const me = await expectJson<{ member: { id: string; name: string } }>(
      await call("GET", "/v1/manage/me", { token }),
      200,
    );
    member = { type: "member", id: me.member.id, name: me.member.name };
    members.set(token, member);
  }
  return member;
}

beforeAll(async () => {
  document = await expectJson<Doc>(await call("GET", "/openapi.json"), 200);
  operations = operationsOf(document);
  world = await seedWorld(document);
  ownerToken = world.member({ key: "GET /v1/manage/audit-log" } as Operation).token;
}, 60_000);

describe("the audit log covers every management change", () => {
  it("has an action for every state-changing operation but the product's own traffic", () => {
    const changes = operations.filter((op) => op.method !== "GET");
    expect(changes.length).toBeGreaterThan(40);
    expect(
      changes
        .filter((op) => !actionOf(op))
        .map((op) => op.key)
        .sort(),
    ).toEqual(Object.keys(NOT_MANAGEMENT).sort());
    expect(operations.filter((op) => op.method === "GET" && actionOf(op))).toEqual([]);
    const named = new Set(changes.flatMap((op) => actionOf(op) ?? []));
    for (const action of named) expect(AUDIT_ACTIONS).toContain(action);
    // Signing in is the sign-in pages' (test/audit/sessions.test.ts); no other action is unused.
    expect(AUDIT_ACTIONS.filter((action) => !named.has(action))).toEqual(["session.signed_in"]);
  });

  it("records each change once, with who, what, on what and from where; nothing else writes", {
    timeout: 180_000,
  }, async () => {
    const wrong: string[] = [];
    let changed = 0;
    for (const op of operations) {
      const drafts = fc.sample(requestFor(op, world, "first"), { numRuns: 3, seed: 36 });
      let done = false;
      for (const sample of drafts) {
        const draft = await world.resolve(sample);
        const [before, operatorBefore] = await Promise.all([workspaceLog(), operatorLog()]);
        const response = await exports.default.fetch(
          new Request(`${ORIGIN}${draft.path}`, {
            method: op.method,
            headers: { ...draft.headers, ...FROM },
            body: draft.body,
          }),
        );
        if (response.webSocket) {
          response.webSocket.accept();
          response.webSocket.close(1000, "audit");
        }
        if (response.status >= 400) {
          await response.body?.cancel();
          continue;
        }
        done = true;
        const text = await response.text();
        const action = actionOf(op);
        const mine = newer(await workspaceLog(), before);
        // The operator's log is shared with other test files: only entries naming this call count.
        const named = (entry: Entry) =>
          draft.path.includes(entry.target.id) || text.includes(entry.target.id);
        const theirs = newer(await operatorLog(), operatorBefore).filter(named);
        if (!action) {
          if (mine.length + theirs.length > 0)
            wrong.push(`${op.key} wrote ${[...mine, ...theirs].map((e) => e.action)}`);
          break;
        }
        changed += 1;
        const operator = op.security.includes("operatorToken");
        const created = operator && action === "workspace.created";
        const ownLog = created
          ? await workspaceLog((JSON.parse(text) as { memberToken: string }).memberToken)
          : [];
        const found = created ? ownLog : operator ? theirs : mine;
        const others = operator ? mine : theirs;
        if (found.length !== 1 || others.length > 0) {
          wrong.push(`${op.key}: ${found.length} entries, ${others.length} elsewhere`);
          break;
        }
        const entry = found[0] as Entry;
        const actor = operator
          ? { type: "operator", id: "operator" }
          : op.security.includes("memberToken")
            ? await memberOf(world.member(op).token)
            : { type: "widget_key", id: expect.stringMatching(/^wk_/), name: "server" };
        const body = draft.body ? strings(JSON.parse(draft.body)) : [];
        // Enums aside (action, types), an entry's text is its ids, the actor's name and the client's.
        const free = [entry.actor.id, entry.actor.name, entry.ip, entry.userAgent].join("\n");
        const leaked = body.filter(
          (value) => value.length >= 6 && value !== entry.target.id && free.includes(value),
        );
        const shown = {
          action: entry.action,
          actor: entry.actor,
          targetNamed: named(entry) || entry.target.id === entry.actor.id,
          ip: entry.ip,
          userAgent: entry.userAgent,
          keys: Object.keys(entry).sort(),
          leaked,
        };
        const expected = {
          action,
          actor,
          targetNamed: true,
          ip: "198.51.100.0/24",
          userAgent: "audit-coverage/1.0",
          keys: ["action", "actor", "at", "id", "ip", "target", "userAgent"],
          leaked: [],
        };
        try {
          expect(shown).toEqual(expected);
        } catch {
          wrong.push(`${op.key}: ${JSON.stringify(shown)}`);
        }
        break;
      }
      if (!done) wrong.push(`${op.key}: no call succeeded`);
    }
    expect(wrong).toEqual([]);
    expect(changed).toBe(operations.filter((op) => actionOf(op)).length);
  });
});
