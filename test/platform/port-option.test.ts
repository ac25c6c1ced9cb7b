/** `npm run dev -- --port 8790` listens on 8790 (scripts/port-option.mjs, used by scripts/dev.mjs). */
import { describe, expect, it } from "vitest";
import { portOption } from "../../scripts/port-option.mjs";

describe("npm run dev's port", () => {
  it.each([
    [["--port", "8790"], undefined, 8790],
    [["--port=8791"], undefined, 8791],
    [["--seed-only", "--port", "8792"], "9000", 8792],
    [[], "9000", 9000],
    [[], undefined, 8787],
    [["--seed-only"], "", 8787],
  ] as const)("%j with PORT=%s listens on %i", (argv, env, port) => {
    expect(portOption(argv, env, 8787)).toBe(port);
  });

  it.each([["--port", "http"], ["--port=0"], ["--port", "70000"]])("refuses %j", (...argv) => {
    expect(() => portOption(argv, undefined, 8787)).toThrow(/is not a port/);
  });
});
