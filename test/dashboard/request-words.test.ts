/**
 * What the request log's entry says of a refusal's reason (docs/webhooks.md#request-log): whether
 * the caller's answer said it too. test/workflows/request-log.test.ts shows the answers: a refused
 * body's `message` is its reason; a refused signature's answer never names its reason.
 */
import { describe, expect, it } from "vitest";
import { outcomeTone, reasonToldToCaller } from "../../src/dashboard/screens/workflows/status";

describe("a refusal's reason in the request log", () => {
  it("says a refused body's reason was told to the caller, a signature's was not", () => {
    expect(reasonToldToCaller("invalid_body")).toBe(true);
    expect(reasonToldToCaller("payload_too_large")).toBe(true);
    expect(reasonToldToCaller("invalid_signature")).toBe(false);
  });

  it("a handshake answered is no refusal; a refused one is, and its reason was not told", () => {
    // docs/webhooks.md#handshakes: answered 200, refused 403 handshake_refused without the reason.
    expect(outcomeTone("handshake", 200)).toBe("ok");
    expect(outcomeTone("handshake_refused", 403)).toBe("bad");
    expect(outcomeTone("invalid_signature", 401)).toBe("bad");
    expect(reasonToldToCaller("handshake_refused")).toBe(false);
  });
});
