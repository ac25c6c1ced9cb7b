/**
 * asana's kept hook secret (docs/webhooks.md#handshakes): the X-Hook-Secret of the first handshake
 * is kept sealed on shard 0 and checks later deliveries' X-Hook-Signature (hex HMAC-SHA256 of the
 * body, developers.asana.com/docs/webhooks-guide#security); it survives a restart, is not stored
 * in plaintext, is reached from every shard; a second handshake with another secret is refused
 * until the builder saves the node without asana, which resets it.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { HookSecretStore } from "../../src/workflows/runner/hook-secrets";
import { RUNNER_CAPACITY_PER_MINUTE, shardOfId } from "../../src/workflows/runner/shards";
import { call, expectJson, seedWorkspace } from "../helpers/api";
import { expectError } from "../helpers/errors";
import { hex, hmac, loggedCalls } from "../helpers/handshake-signing";
import { shardStub } from "../helpers/shards";
import { storedState } from "../helpers/storage-scan";
import { createWorkflow, executionCount, hook } from "../helpers/workflows";

// developers.asana.com/reference/createwebhook: the example handshake's secret.
const SECRET = "b537207f20cbfa02357cf448134da559e8bd39d61597dcd5631b8012eae53e81";
const OTHER = "0c2f7a1b9e4d3c5a6b7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c";

const delivery = async (url: string, secret: string, body: string) =>
  hook(url, {
    headers: {
      "content-type": "application/json",
      "x-hook-signature": hex(await hmac(secret, body)),
    },
    body,
  });
const handshake = (url: string, secret: string) =>
  hook(url, { headers: { "x-hook-secret": secret } });
const quietly = async <T>(run: () => Promise<T>): Promise<T> => {
  const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    return await run();
  } finally {
    quiet.mockRestore();
  }
};

describe("asana's kept hook secret", () => {
  it("checks deliveries, survives a restart, is sealed at rest; a second secret waits for a reset", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, {
      nodes: [{ type: "webhook", verify: { preset: "asana" } }],
    });
    const url = flow.webhookUrls.webhook_1 as string;
    const body = JSON.stringify({ events: [{ action: "changed", resource: { gid: "1" } }] });
    // Before any handshake nothing verifies (fail closed).
    await quietly(async () =>
      expectError(await delivery(url, SECRET, body), 401, "invalid_signature"),
    );
    expect((await handshake(url, SECRET)).status).toBe(200);
    expect((await delivery(url, SECRET, body)).status).toBe(200);
    await quietly(async () => {
      await expectError(await delivery(url, OTHER, body), 401, "invalid_signature");
      const signature = hex(await hmac(SECRET, body));
      const tampered = await hook(url, {
        headers: { "content-type": "application/json", "x-hook-signature": signature },
        body: body.replace("changed", "deleted"),
      });
      await expectError(tampered, 401, "invalid_signature");
    });
    // Trust on first use: another secret is refused while one is kept; the same one is answered.
    await expectError(await handshake(url, OTHER), 403, "handshake_refused");
    expect((await handshake(url, SECRET)).headers.get("x-hook-secret")).toBe(SECRET);

    const logged = await loggedCalls(ws, flow.id, 7);
    expect(logged.map(({ outcome, reason }) => `${outcome} ${reason}`)).toEqual([
      "invalid_signature no_secret",
      "handshake null",
      "accepted null",
      "invalid_signature bad_signature",
      "invalid_signature bad_signature",
      "handshake_refused secret_kept",
      "handshake null",
    ]);

    const stub = shardStub(flow.id, 0);
    const stored = await storedState(stub);
    expect(stored.schema).toContain("hook_secrets");
    expect(stored.text).toMatch(/k1\.[0-9a-f]{16}\./);
    expect(stored.text).not.toContain(SECRET);
    await runInDurableObject(stub, (_instance, state) => state.abort("test restart")).catch(
      () => undefined,
    );
    const after = JSON.stringify({ events: [{ action: "added", resource: { gid: "2" } }] });
    expect((await delivery(url, SECRET, after)).status).toBe(200);
    // Asana stamps nothing: a replayed delivery is known by its signature (docs/webhooks.md#deduplication).
    const replayed = await delivery(url, SECRET, after);
    expect(replayed.headers.get("x-deduplicated")).toBe("true");
    expect(await executionCount(ws, flow.id)).toBe(2);
  });

  it("is reset when the node is saved without asana: the next handshake is kept", async () => {
    const ws = await seedWorkspace();
    const asana = { nodes: [{ type: "webhook", verify: { preset: "asana" } }] };
    const flow = await createWorkflow(ws, asana);
    const url = flow.webhookUrls.webhook_1 as string;
    expect((await handshake(url, SECRET)).status).toBe(200);
    const save = async (nodes: unknown[]) =>
      expectJson(
        await call("PUT", `/v1/manage/workflows/${flow.id}`, {
          token: ws.ownerToken,
          body: { name: "Asana", slug: flow.slug, nodes, connections: [] },
        }),
        200,
      );
    // Saving it unchanged keeps the secret.
    await save(asana.nodes);
    await expectError(await handshake(url, OTHER), 403, "handshake_refused");
    await save([{ type: "webhook" }]);
    await save(asana.nodes);
    expect((await handshake(url, OTHER)).headers.get("x-hook-secret")).toBe(OTHER);
    const body = JSON.stringify({ events: [] });
    expect((await delivery(url, OTHER, body)).status).toBe(200);
    await quietly(async () =>
      expectError(await delivery(url, SECRET, body), 401, "invalid_signature"),
    );
  });

  it("is resealed by the runner's reseal (docs/security.md#rotating-keys)", async () => {
    const ws = await seedWorkspace();
    const flow = await createWorkflow(ws, {
      nodes: [{ type: "webhook", verify: { preset: "asana" } }],
    });
    const url = flow.webhookUrls.webhook_1 as string;
    expect((await handshake(url, SECRET)).status).toBe(200);
    const stub = shardStub(flow.id, 0);
    // As sealed before sealed values named their key: only a reseal gives it the current key's id.
    const legacy = await legacySeal(SECRET, `hook-secret/${flow.id}/webhook_1`);
    await runInDurableObject(stub, (_instance, state) => {
      state.storage.sql.exec("UPDATE hook_secrets SET sealed = ?", legacy);
    });
    await stub.resealRecords(null, 10);
    const stored = await storedState(stub);
    expect(stored.text).not.toContain(legacy);
    expect(stored.text).toMatch(/k1\.[0-9a-f]{16}\./);
    expect((await delivery(url, SECRET, JSON.stringify({ events: [] }))).status).toBe(200);
  });

  it("is kept and read on shard 0 for calls that reach the other shards", async () => {
    const ws = await seedWorkspace();
    const rateLimitPerMinute = 3 * RUNNER_CAPACITY_PER_MINUTE + 1; // four shards
    const verify = { preset: "asana" };
    const flow = await createWorkflow(ws, {
      nodes: [{ type: "webhook", rateLimitPerMinute, verify }],
    });
    const url = flow.webhookUrls.webhook_1 as string;
    expect((await handshake(url, SECRET)).status).toBe(200);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const answered = await delivery(url, SECRET, JSON.stringify({ events: [{ n: i }] }));
      ids.push((await expectJson<{ executionId: string }>(answered, 200)).executionId);
    }
    expect(ids.some((id) => shardOfId(id) !== 0)).toBe(true);
    expect((await storedState(shardStub(flow.id, 0))).text).toMatch(/k1\./);
  });
});

/** A value as sealed before key ids: `base64(iv || ciphertext || tag)` under SECRETS_KEY. */
async function legacySeal(plaintext: string, aad: string): Promise<string> {
  const raw = Uint8Array.from(atob(env.SECRETS_KEY as string), (c) => c.charCodeAt(0));
  const aes = await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt"]);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const encoder = new TextEncoder();
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: encoder.encode(aad) },
      aes,
      encoder.encode(plaintext),
    ),
  );
  return btoa(String.fromCharCode(...iv, ...sealed));
}

/** A fresh object to borrow the SQLite of; the store under test is built on it directly. */
const anyObject = () => env.LINK_LEDGER.get(env.LINK_LEDGER.newUniqueId());
const key = (byte: number) => btoa(String.fromCharCode(...new Uint8Array(32).fill(byte)));

describe("the hook secret store", () => {
  it("keeps one secret a node, bound to it, resealed under a new SECRETS_KEY", async () => {
    await runInDurableObject(anyObject(), async (_instance, state) => {
      const { sql } = state.storage;
      const old = new HookSecretStore(sql, { SECRETS_KEY: key(1) });
      expect(await old.keep("wf_1", "hook", SECRET)).toBe(true);
      expect(await old.keep("wf_1", "hook", OTHER)).toBe(false);
      expect(await old.keep("wf_1", "hook", SECRET)).toBe(true);
      expect(await old.get("wf_1", "hook")).toBe(SECRET);
      // Bound to its workflow and node: copied to another node's row, it does not open.
      const [row] = sql.exec<{ sealed: string }>("SELECT sealed FROM hook_secrets").toArray();
      sql.exec("INSERT INTO hook_secrets VALUES ('moved', 'wf_1', ?, 0)", row?.sealed ?? "");
      await expect(old.get("wf_1", "moved")).rejects.toThrow(/could not be decrypted/);
      old.keepOnly(["hook"]);
      expect(await old.get("wf_1", "moved")).toBeNull();
      // docs/security.md#rotating-keys: resealed, it opens with the new key alone.
      const rotating = new HookSecretStore(sql, {
        SECRETS_KEY: key(2),
        SECRETS_KEY_PREVIOUS: key(1),
      });
      expect(await rotating.reseal()).toBe(1);
      expect(await rotating.reseal()).toBe(0);
      expect(await new HookSecretStore(sql, { SECRETS_KEY: key(2) }).get("wf_1", "hook")).toBe(
        SECRET,
      );
      old.keepOnly([]);
      expect(await old.get("wf_1", "hook")).toBeNull();
    });
  });
});
