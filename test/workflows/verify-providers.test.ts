/**
 * New presets end to end through a webhook URL (docs/webhooks.md#presets): Discord's Ed25519 and
 * Postmark's basic auth verify or answer 401 invalid_signature; a rotating secret
 * (docs/webhooks.md#rotation) takes either of two and the request log names the one that verified;
 * Paddle's and Bitbucket's deliveries dedupe without a dedupe setting.
 */
import { describe, expect, it, vi } from "vitest";
import type { LoggedRequest } from "../../src/workflows/runner/request-log-entry";
import { call, expectJson, seedWorkspace, type Workspace } from "../helpers/api";
import { expectError } from "../helpers/errors";
import {
  createWorkflow,
  executionCount,
  githubSignature,
  hook,
  putSecret,
} from "../helpers/workflows";

const encoder = new TextEncoder();
const hex = (bytes: ArrayBuffer) =>
  [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
const nowS = () => String(Math.floor(Date.now() / 1000));

async function hmacHex(secret: string, message: string) {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return hex(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
}

async function flow(ws: Workspace, verify: Record<string, unknown>) {
  const created = await createWorkflow(ws, { nodes: [{ type: "webhook", verify }] });
  return created;
}

const entries = async (ws: Workspace, workflowId: string) =>
  (
    await expectJson<{ data: LoggedRequest[] }>(
      await call("GET", `/v1/manage/workflows/${workflowId}/requests`, { token: ws.ownerToken }),
      200,
    )
  ).data;

describe("new presets through a webhook URL", () => {
  it("discord: an Ed25519-signed interaction runs; tampered or stale is 401", async () => {
    const ws = await seedWorkspace();
    const pair = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, [
      "sign",
      "verify",
    ])) as CryptoKeyPair;
    const publicHex = hex((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
    await putSecret(ws, "DISCORD_KEY", publicHex);
    const created = await flow(ws, { preset: "discord", secret: "{{secrets.DISCORD_KEY}}" });
    const url = created.webhookUrls.webhook_1 as string;
    const body = '{"id":"int_1","type":2}';
    const signed = async (timestamp: string) => ({
      "content-type": "application/json",
      "x-signature-timestamp": timestamp,
      "x-signature-ed25519": hex(
        await crypto.subtle.sign(
          { name: "Ed25519" },
          pair.privateKey,
          encoder.encode(timestamp + body),
        ),
      ),
    });
    expect((await hook(url, { headers: await signed(nowS()), body })).status).toBe(200);
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    await expectError(
      await hook(url, { headers: await signed(nowS()), body: body.replace("2}", "3}") }),
      401,
      "invalid_signature",
    );
    const stale = String(Math.floor(Date.now() / 1000) - 3600);
    await expectError(
      await hook(url, { headers: await signed(stale), body }),
      401,
      "invalid_signature",
    );
    quiet.mockRestore();
    expect(await executionCount(ws, created.id)).toBe(1);
    const reasons = (await entries(ws, created.id)).map((entry) => entry.reason).sort();
    expect(reasons).toEqual(["bad_signature", "stale_timestamp", null].sort());
  });

  it("postmark: basic auth with the secret's user:password runs; another password is 401", async () => {
    const ws = await seedWorkspace();
    await putSecret(ws, "POSTMARK", "hooks:s3cret-pass");
    const created = await flow(ws, { preset: "postmark", secret: "{{secrets.POSTMARK}}" });
    const url = created.webhookUrls.webhook_1 as string;
    const body = '{"RecordType":"Delivery"}';
    const auth = (pair: string) => ({
      "content-type": "application/json",
      authorization: `Basic ${btoa(pair)}`,
    });
    expect((await hook(url, { headers: auth("hooks:s3cret-pass"), body })).status).toBe(200);
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    await expectError(
      await hook(url, { headers: auth("hooks:guess"), body }),
      401,
      "invalid_signature",
    );
    quiet.mockRestore();
    // The credential is not shown in the log.
    expect(JSON.stringify(await entries(ws, created.id))).not.toContain(btoa("hooks:s3cret-pass"));
  });

  it("rotation: either of two secrets verifies; the log names which, never its value", async () => {
    const ws = await seedWorkspace();
    await putSecret(ws, "GH_NEW", "new-signing-secret");
    await putSecret(ws, "GH_OLD", "old-signing-secret");
    const created = await flow(ws, {
      preset: "github",
      secret: ["{{secrets.GH_NEW}}", "{{secrets.GH_OLD}}"],
    });
    expect(created.nodes[0]?.verify).toMatchObject({
      secret: ["{{secrets.GH_NEW}}", "{{secrets.GH_OLD}}"],
    });
    const url = created.webhookUrls.webhook_1 as string;
    const send = async (secret: string, body: string) =>
      hook(url, {
        headers: {
          "content-type": "application/json",
          "x-hub-signature-256": await githubSignature(secret, body),
        },
        body,
      });
    expect((await send("old-signing-secret", '{"n":1}')).status).toBe(200);
    expect((await send("new-signing-secret", '{"n":2}')).status).toBe(200);
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    await expectError(await send("neither", '{"n":3}'), 401, "invalid_signature");
    quiet.mockRestore();
    const logged = await entries(ws, created.id);
    const byBody = Object.fromEntries(
      logged.map((entry) => [entry.bodyPreview, entry.verifiedWith ?? null]),
    );
    expect(byBody).toEqual({ '{"n":1}': "GH_OLD", '{"n":2}': "GH_NEW", '{"n":3}': null });
    expect(JSON.stringify(logged)).not.toMatch(/(new|old)-signing-secret/);
  });

  it("rotation: a list of one, three or a non-template is refused", async () => {
    const ws = await seedWorkspace();
    for (const secret of [
      ["{{secrets.A}}"],
      ["{{secrets.A}}", "{{secrets.B}}", "{{secrets.C}}"],
      ["{{secrets.A}}", "plain"],
    ]) {
      const answer = await call("POST", "/v1/manage/workflows", {
        token: ws.ownerToken,
        body: {
          name: "R",
          slug: `rotation-${secret.length}${secret.at(-1)?.length}`,
          nodes: [{ type: "webhook", verify: { preset: "github", secret } }],
          connections: [],
        },
      });
      const refused = await expectJson<{ error: { details: { field: string; code: string }[] } }>(
        answer,
        400,
      );
      expect(refused.error.details).toEqual([
        expect.objectContaining({ field: "nodes[0].verify.secret", code: "invalid_secret" }),
      ]);
    }
  });

  it("paddle and bitbucket dedupe by default: on event_id, on the signature", async () => {
    const ws = await seedWorkspace();
    await putSecret(ws, "PADDLE", "pdl_ntfset_secret");
    await putSecret(ws, "BB", "bb-secret");
    const paddle = await flow(ws, { preset: "paddle", secret: "{{secrets.PADDLE}}" });
    const body = '{"event_id":"evt_01h","event_type":"transaction.completed"}';
    const paddleCall = async (ts: string) =>
      hook(paddle.webhookUrls.webhook_1 as string, {
        headers: {
          "content-type": "application/json",
          "paddle-signature": `ts=${ts};h1=${await hmacHex("pdl_ntfset_secret", `${ts}:${body}`)}`,
        },
        body,
      });
    const first = await paddleCall(nowS());
    expect(first.headers.get("x-deduplicated")).toBeNull();
    // A retry is signed anew (another ts): the delivery is known by its event_id.
    const retry = await paddleCall(String(Number(nowS()) - 5));
    expect(retry.headers.get("x-deduplicated")).toBe("true");
    expect(await executionCount(ws, paddle.id)).toBe(1);

    const bitbucket = await flow(ws, { preset: "bitbucket", secret: "{{secrets.BB}}" });
    const headers = {
      "content-type": "application/json",
      "x-hub-signature": `sha256=${await hmacHex("bb-secret", body)}`,
    };
    const bbUrl = bitbucket.webhookUrls.webhook_1 as string;
    expect(
      (await hook(bbUrl, { headers: { ...headers, "x-request-uuid": "u-1" }, body })).headers.get(
        "x-deduplicated",
      ),
    ).toBeNull();
    expect(
      (await hook(bbUrl, { headers: { ...headers, "x-request-uuid": "u-2" }, body })).headers.get(
        "x-deduplicated",
      ),
    ).toBe("true");
    expect(await executionCount(ws, bitbucket.id)).toBe(1);
  });

  it("a replay cannot add signatures to pass as new: the one that verified names the delivery", async () => {
    const ws = await seedWorkspace();
    await putSecret(ws, "PD", "pd-secret");
    await putSecret(ws, "DS", "ds-secret");
    const body = '{"event":{"id":"ev_1","event_type":"incident.triggered"}}';
    const json = { "content-type": "application/json" };
    const pagerduty = await flow(ws, { preset: "pagerduty", secret: "{{secrets.PD}}" });
    const pdUrl = pagerduty.webhookUrls.webhook_1 as string;
    const signature = `v1=${await hmacHex("pd-secret", body)}`;
    const pdCall = (value: string) =>
      hook(pdUrl, { headers: { ...json, "x-pagerduty-signature": value }, body });
    expect((await pdCall(signature)).headers.get("x-deduplicated")).toBeNull();
    // Extra entries (PagerDuty's own list form) still verify, and are still the same delivery.
    for (const replay of [`${signature},v1=00`, `v1=ff,${signature}`]) {
      expect((await pdCall(replay)).headers.get("x-deduplicated")).toBe("true");
    }
    expect(await executionCount(ws, pagerduty.id)).toBe(1);

    // DocuSign sends one header per HMAC key: a secret that matches the second one verifies.
    const docusign = await flow(ws, { preset: "docusign", secret: "{{secrets.DS}}" });
    const dsUrl = docusign.webhookUrls.webhook_1 as string;
    const key = await crypto.subtle.importKey(
      "raw",
      encoder.encode("ds-secret"),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const mac = btoa(
      String.fromCharCode(
        ...new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(body))),
      ),
    );
    const two = { "x-docusign-signature-1": "b3RoZXI=", "x-docusign-signature-2": mac };
    expect((await hook(dsUrl, { headers: { ...json, ...two }, body })).status).toBe(200);
    // The same delivery with the headers swapped is a repeat, not a new one.
    const swapped = { "x-docusign-signature-1": mac, "x-docusign-signature-2": "b3RoZXI=" };
    const repeat = await hook(dsUrl, { headers: { ...json, ...swapped }, body });
    expect(repeat.headers.get("x-deduplicated")).toBe("true");
  });
});
