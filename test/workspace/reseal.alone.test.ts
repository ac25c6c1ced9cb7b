/**
 * The reseal job (docs/security.md#rotating-keys): `POST /v1/operator/reseal` seals every stored
 * value again under the current key, in the background, a page at a time on its object's alarm,
 * resuming after its object is evicted; `GET /v1/operator/reseal/{id}` shows how far it got. Here
 * the values to reseal are ones stored before sealed values named their key; the rotation from one
 * key to another, across restarts of a real server, is test/browser/key-rotation.spec.ts. It runs
 * on a runtime of its own (`*.alone.test.ts`, vitest.config.ts), so a job walks this file's data;
 * walking many runners is test/workspace/runner-walk.test.ts.
 */
import { evictDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { keyring } from "../../src/platform/secret-box";
import { maintenanceJob } from "../../src/workspace/jobs/client";
import {
  call,
  eventually,
  expectJson,
  OPERATOR_TOKEN,
  ORIGIN,
  seedWorkspace,
} from "../helpers/api";
import { expectError } from "../helpers/errors";

type Job = {
  id: string;
  status: string;
  counts: Record<string, number>;
  completedAt: string | null;
};

/** A value as sealed before key ids: `base64(iv || ciphertext || tag)` under SECRETS_KEY. */
async function legacySeal(plaintext: string, aad: string): Promise<string> {
  const raw = Uint8Array.from(atob(env.SECRETS_KEY as string), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt"]);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(aad) },
      key,
      new TextEncoder().encode(plaintext),
    ),
  );
  return btoa(String.fromCharCode(...iv, ...sealed));
}

const operator = { token: OPERATOR_TOKEN };

/** Job `id` once it has ended (a reseal walks every workspace and workflow of the database). */
const completed = (id: string) =>
  eventually(async () => {
    const job = await expectJson<Job>(
      await call("GET", `/v1/operator/reseal/${id}`, operator),
      200,
    );
    return job.status === "running" ? undefined : job;
  }, 240_000);

describe("the reseal job", () => {
  it("reseals stored values in the background and resumes after its object is evicted", async () => {
    const ws = await seedWorkspace();
    const legacy = await legacySeal("old-value", `${ws.workspaceId}/OLD_SECRET`);
    await env.DB.prepare(
      "INSERT INTO secrets (workspace_id, name, ciphertext, created_at, updated_at) VALUES (?, 'OLD_SECRET', ?, 0, 0)",
    )
      .bind(ws.workspaceId, legacy)
      .run();
    // A reseal another file started may be running: asked meanwhile, it answers with that one.
    // So the job that must find the value is one started once that one has ended.
    const first = await expectJson<Job>(await call("POST", "/v1/operator/reseal", operator), 202);
    expect(first.id).toMatch(/^rsl_[0-9A-Za-z]{22}$/);
    const again = await expectJson<Job>(await call("POST", "/v1/operator/reseal", operator), 202);
    if (again.status === "running") expect(again.id).toBe(first.id);
    await completed(first.id);
    const started = await expectJson<Job>(await call("POST", "/v1/operator/reseal", operator), 202);
    expect(started.id).not.toBe(first.id);
    // As a restart would: the object goes; its stored job and alarm carry on.
    await evictDurableObject(maintenanceJob(env, "reseal"));
    const done = await completed(started.id);
    const before = await completed(first.id);
    // The first run or this one sealed it again, whichever began after it was stored.
    expect((before.counts.secrets ?? 0) + (done.counts.secrets ?? 0)).toBeGreaterThanOrEqual(1);
    expect(done.completedAt).not.toBeNull();
    const row = await env.DB.prepare(
      "SELECT ciphertext FROM secrets WHERE workspace_id = ? AND name = 'OLD_SECRET'",
    )
      .bind(ws.workspaceId)
      .first<{ ciphertext: string }>();
    const { current } = await keyring(env);
    expect(row?.ciphertext.startsWith(`k1.${current.id}.`)).toBe(true);
    // Ended jobs stay readable by id.
    expect(before.id).toBe(first.id);
    const values = await call("PUT", "/v1/manage/secrets/OLD_SECRET", {
      token: ws.ownerToken,
      body: { value: "replaced" },
    });
    expect(values.status).toBe(204);
  }, 540_000);

  it("is for the operator only; an unknown job is 404", async () => {
    const ws = await seedWorkspace();
    await expectError(
      await call("POST", "/v1/operator/reseal", { token: ws.ownerToken }),
      401,
      "invalid_key",
    );
    await expectError(await call("POST", "/v1/operator/reseal"), 401, "invalid_key");
    await expectError(
      await call("GET", "/v1/operator/reseal/rsl_0000000000000000000000", operator),
      404,
      "not_found",
    );
    await expectError(await call("GET", "/v1/operator/reseal/nope", operator), 404, "not_found");
  });

  it("accepts a previous operator token while OPERATOR_TOKEN_PREVIOUS lists it", async () => {
    const app = (await import("../../src/index")).default;
    const rotated = {
      ...env,
      OPERATOR_TOKEN: "new-operator-token-of-32-characters",
      OPERATOR_TOKEN_PREVIOUS: OPERATOR_TOKEN,
    };
    const request = (token: string) =>
      new Request(`${ORIGIN}/v1/operator/reseal/rsl_0000000000000000000000`, {
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await app.fetch(request(OPERATOR_TOKEN), rotated)).status).toBe(404);
    expect((await app.fetch(request("new-operator-token-of-32-characters"), rotated)).status).toBe(
      404,
    );
    expect((await app.fetch(request("another-token"), rotated)).status).toBe(401);
    const done = {
      ...env,
      OPERATOR_TOKEN: "new-operator-token-of-32-characters",
      OPERATOR_TOKEN_PREVIOUS: undefined,
    };
    expect((await app.fetch(request(OPERATOR_TOKEN), done)).status).toBe(401);
  });
});
