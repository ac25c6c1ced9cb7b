import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  redactedJson,
  redactSecrets,
  secretsForRedaction,
} from "../../../src/workflows/engine/redact";

describe("redactSecrets", () => {
  it("replaces secrets in nested string values and leaves keys and other values", () => {
    const input = {
      headers: { authorization: "Bearer tok_123", tok_123: "key stays" },
      list: ["tok_123", 42, null, { deep: "a tok_123 b tok_123" }],
      flag: true,
    };
    const output = redactSecrets(input, ["tok_123"]);
    expect(output).toEqual({
      headers: { authorization: "Bearer [redacted]", tok_123: "key stays" },
      list: ["[redacted]", 42, null, { deep: "a [redacted] b [redacted]" }],
      flag: true,
    });
    expect(input.headers.authorization).toBe("Bearer tok_123");
    expect(output.list).not.toBe(input.list);
  });

  it("covers nested and overlapping secrets fully and ignores empty ones", () => {
    expect(redactSecrets("xabcdefx", ["abc", "abcdef"])).toBe("x[redacted]x");
    expect(redactSecrets("xabcdx", ["abc", "bcd"])).toBe("x[redacted]x");
    expect(redactSecrets("aaa", ["aa"])).toBe("[redacted]");
    expect(redactSecrets("keep", ["", "zzz"])).toBe("keep");
  });

  it("does not match inside its own marker", () => {
    expect(redactSecrets("red and secret", ["red", "secret"])).toBe("[redacted] and [redacted]");
  });

  it("copies even when there is nothing to redact", () => {
    const input = { a: ["b"] };
    const output = redactSecrets(input, []);
    expect(output).toEqual(input);
    expect(output).not.toBe(input);
  });
});

describe("redactedJson", () => {
  it("equals JSON.stringify(redactSecrets(...)) without copying, and is plain JSON without secrets", () => {
    const value = { a: ["x-tok_123-y", { b: "tok_123" }], n: 5, tok_123: "key kept" };
    expect(redactedJson(value, ["tok_123"])).toBe(
      JSON.stringify(redactSecrets(value, ["tok_123"])),
    );
    expect(redactedJson(value, ["tok_123"])).toContain('"b":"[redacted]"');
    expect(redactedJson(value, [])).toBe(JSON.stringify(value));
  });

  it("equals the copy's JSON for any value and secrets, escaped characters and surrogates included", () => {
    // Few characters, so secrets occur often: JSON escapes ("\\, \n), a pair and its halves.
    const unit = fc.constantFrom(
      "a",
      "b",
      '"',
      "\\",
      "\n",
      "\u0001",
      "é",
      "\ud83d",
      "\ude00",
      "😀",
    );
    const text = fc.array(unit, { maxLength: 6 }).map((units) => units.join(""));
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        text,
        fc.integer(),
        fc.constant(null),
        fc.array(tie("value"), { maxLength: 3 }),
        fc.dictionary(text, tie("value"), { maxKeys: 3 }),
      ),
    }));
    fc.assert(
      fc.property(value, fc.array(text, { maxLength: 3 }), (json, secrets) => {
        const expected = JSON.stringify(redactSecrets(json, secrets));
        expect(redactedJson(json, secretsForRedaction(secrets))).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });
});
