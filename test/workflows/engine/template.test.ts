import { describe, expect, it } from "vitest";
import type { JsonValue } from "../../../src/platform/json";
import {
  resolveValue,
  secretReferences,
  type TemplateScope,
  templateReferences,
} from "../../../src/workflows/engine/template";

const scope: TemplateScope = {
  outputs: {
    webhook_1: {
      body: {
        user: { id: 42, name: "Ada", admin: true },
        items: [{ name: "first" }],
        nothing: null,
      },
      headers: { "x-webhook-secret": "s3cret", "content-type": "application/json" },
      queryParams: { page: "2", tag: ["a", "b"] },
      method: "POST",
    },
  },
  secrets: { WEBHOOK_SECRET: "s3cret" },
};

describe("resolveValue (docs/api/webhooks.md templates)", () => {
  it("keeps the referenced value's type when the string is one template", () => {
    expect(resolveValue("{{webhook_1.body.user.id}}", scope)).toBe(42);
    expect(resolveValue("{{webhook_1.body.user.admin}}", scope)).toBe(true);
    expect(resolveValue("{{ webhook_1.body.user }}", scope)).toEqual({
      id: 42,
      name: "Ada",
      admin: true,
    });
    expect(resolveValue("{{webhook_1.queryParams.tag}}", scope)).toEqual(["a", "b"]);
    expect(resolveValue("{{webhook_1.body.nothing}}", scope)).toBeNull();
  });

  it("interpolates templates inside text", () => {
    expect(
      resolveValue("id={{webhook_1.body.user.id}}, admin={{webhook_1.body.user.admin}}", scope),
    ).toBe("id=42, admin=true");
    expect(resolveValue("user: {{webhook_1.body.user}}", scope)).toBe(
      'user: {"id":42,"name":"Ada","admin":true}',
    );
    expect(resolveValue("[{{webhook_1.body.nothing}}]", scope)).toBe("[]");
    // Leading space: not a whole-string template, so the number becomes text.
    expect(resolveValue(" {{webhook_1.body.user.id}}", scope)).toBe(" 42");
  });

  it("reads header names with dashes, query params, the method, array indexes and secrets", () => {
    expect(resolveValue("{{webhook_1.headers.x-webhook-secret}}", scope)).toBe("s3cret");
    expect(resolveValue("{{webhook_1.queryParams.page}}", scope)).toBe("2");
    expect(resolveValue("{{webhook_1.method}}", scope)).toBe("POST");
    expect(resolveValue("{{webhook_1.body.items.0.name}}", scope)).toBe("first");
    expect(resolveValue("Bearer {{secrets.WEBHOOK_SECRET}}", scope)).toBe("Bearer s3cret");
  });

  it("resolves missing values to empty, whole or inside text", () => {
    expect(resolveValue("{{webhook_1.body.user.email}}", scope)).toBe("");
    expect(resolveValue("{{nobody.body}}", scope)).toBe("");
    expect(resolveValue("{{secrets.MISSING}}", scope)).toBe("");
    expect(resolveValue("a{{webhook_1.body.items.5.name}}b", scope)).toBe("ab");
    expect(resolveValue("{{webhook_1.body.items.01.name}}", scope)).toBe("");
    expect(resolveValue("{{webhook_1.method.length}}", scope)).toBe("");
  });

  it("reads own __proto__ and constructor keys as data, never prototype members", () => {
    const body = JSON.parse('{"__proto__": {"polluted": "yes"}, "constructor": "x"}') as JsonValue;
    const local: TemplateScope = { outputs: { n: { body } }, secrets: {} };
    expect(resolveValue("{{n.body.__proto__.polluted}}", local)).toBe("yes");
    expect(resolveValue("{{n.body.__proto__}}", local)).toEqual({ polluted: "yes" });
    expect(resolveValue("{{n.body.constructor}}", local)).toBe("x");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(resolveValue("{{n.body.__proto__.toString}}", local)).toBe("");
    expect(resolveValue("{{n.constructor}}", local)).toBe("");
    expect(resolveValue("{{n.__proto__}}", local)).toBe("");
    expect(resolveValue("{{n.toString}}", local)).toBe("");
    expect(resolveValue("{{constructor.name}}", local)).toBe("");
    expect(resolveValue("{{secrets.constructor}}", local)).toBe("");
    expect(resolveValue("{{secrets.__proto__}}", local)).toBe("");
    expect(resolveValue("{{webhook_1.body.user.hasOwnProperty}}", scope)).toBe("");
    expect(resolveValue("{{webhook_1.body.items.constructor}}", scope)).toBe("");
  });

  it("walks arrays and objects, leaves keys, other types and plain strings alone", () => {
    const input = {
      ok: true,
      count: 3,
      "{{webhook_1.method}}": "{{webhook_1.method}}",
      list: ["{{webhook_1.body.user.id}}", null, "plain"],
    };
    expect(resolveValue(input, scope)).toEqual({
      ok: true,
      count: 3,
      "{{webhook_1.method}}": "POST",
      list: [42, null, "plain"],
    });
    expect(input.list[0]).toBe("{{webhook_1.body.user.id}}");
    expect(resolveValue("no templates {here}", scope)).toBe("no templates {here}");
    expect(resolveValue("{{ }} and {{", scope)).toBe("{{ }} and {{");
  });

  it("does not resolve templates that arrive inside data (no injection)", () => {
    const local: TemplateScope = {
      outputs: { w: { body: { text: "{{secrets.KEY}}" } } },
      secrets: { KEY: "hidden" },
    };
    expect(resolveValue("{{w.body.text}}", local)).toBe("{{secrets.KEY}}");
    expect(resolveValue("say {{w.body.text}}", local)).toBe("say {{secrets.KEY}}");
  });
});

describe("templateReferences and secretReferences", () => {
  const value = {
    a: "{{webhook_1.body.x}} and {{ set_1.ok }}",
    b: ["{{webhook_1.method}}", { c: "{{secrets.API_KEY}}" }],
    d: "{{secrets.OTHER}}{{secrets.API_KEY}}",
    e: 5,
  };

  it("lists referenced node keys once, without secrets", () => {
    expect(templateReferences(value)).toEqual(["webhook_1", "set_1"]);
    expect(templateReferences("plain")).toEqual([]);
  });

  it("lists referenced secret names once", () => {
    expect(secretReferences(value)).toEqual(["API_KEY", "OTHER"]);
    expect(secretReferences("{{webhook_1.secrets}}")).toEqual([]);
  });
});
