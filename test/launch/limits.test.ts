import { describe, expect, it } from "vitest";
import { launchLimits } from "../../src/launch/limits";
import type { AppBindings } from "../../src/platform/env";

const bindings = (vars: Partial<AppBindings>) => vars as AppBindings;

describe("launchLimits (spec 8; vars may change them)", () => {
  it("defaults to 120 calls per 60 s and 10,000 pending links", () => {
    expect(launchLimits(bindings({}))).toEqual({
      rateLimitPerWindow: 120,
      rateLimitWindowMs: 60_000,
      maxPendingLinks: 10_000,
    });
  });

  it("takes RATE_LIMIT_PER_MINUTE and MAX_PENDING_LINKS from the vars", () => {
    expect(
      launchLimits(bindings({ RATE_LIMIT_PER_MINUTE: "1000000000", MAX_PENDING_LINKS: "5" })),
    ).toMatchObject({ rateLimitPerWindow: 1_000_000_000, maxPendingLinks: 5 });
  });

  it.each(["", "0", "-3", "1.5", "many"])("falls back to the default for %j", (value) => {
    expect(
      launchLimits(bindings({ RATE_LIMIT_PER_MINUTE: value, MAX_PENDING_LINKS: value })),
    ).toMatchObject({ rateLimitPerWindow: 120, maxPendingLinks: 10_000 });
  });
});
