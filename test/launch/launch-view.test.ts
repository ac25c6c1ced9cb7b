/**
 * The look-up's view as JSON text (src/launch/ledger/link-cache.ts `launchView`): made once per
 * row and status, it must still be the view of that row at that moment: a pending link's status
 * turns to expired at its expiry, and a row replaced by a write shows the write.
 */
import { describe, expect, it } from "vitest";
import type { Link } from "../../src/db/schema";
import { launchView, toRow } from "../../src/launch/ledger/link-cache";
import { toLaunch } from "../../src/launch/links";

const expiresAt = Date.UTC(2026, 10, 27, 12);
const row: Link = toRow({
  id: "lnk_view",
  workspaceId: "ws_1",
  flowId: "agt_1",
  channelId: "ch_1",
  tokenHash: "0".repeat(64),
  status: "pending",
  parameters: {},
  metadata: { order: "42" },
  participantName: "Ada",
  expiresAt,
  createdAt: expiresAt - 3_600_000,
  createdBy: "wk_1",
} as unknown as Link);

const view = (link: Link, now: number) => {
  const found = launchView({ ok: true, value: link }, now);
  if (!found.ok) throw new Error("refused");
  return found.value;
};

describe("launchView", () => {
  it("is the row's view at each moment, before and after the link expires", () => {
    for (const now of [expiresAt - 1000, expiresAt - 1, expiresAt, expiresAt + 1, expiresAt - 1]) {
      expect(view(row, now)).toBe(JSON.stringify(toLaunch(row, now)));
    }
    expect(JSON.parse(view(row, expiresAt - 1)).status).toBe("pending");
    expect(JSON.parse(view(row, expiresAt)).status).toBe("expired");
  });

  it("shows a write: the row that replaced the cached one has its own view", () => {
    const now = expiresAt - 1000;
    expect(JSON.parse(view(row, now)).status).toBe("pending");
    const revoked = { ...row, status: "revoked" as const, revokedAt: now };
    expect(JSON.parse(view(revoked, now)).status).toBe("revoked");
    const started = { ...row, status: "active" as const, sessionId: "ses_1", startedAt: now };
    expect(view(started, now)).toBe(JSON.stringify(toLaunch(started, now)));
  });

  it("passes a refusal on untouched", () => {
    const refusal = {
      ok: false as const,
      refusal: { status: 404, code: "not_found", message: "x" },
    };
    expect(launchView(refusal as never, 0)).toBe(refusal);
  });
});
