/**
 * The node panel's settings as rendered (docs/dashboard.md#workflow-editor): a required choice
 * without a default (a new condition's operator) starts on an empty "Choose…", never on a value
 * the node does not have (issue 30, fault 1); an optional one starts on "Default".
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server.edge";
import { describe, expect, it } from "vitest";
import { checkNode, fieldsOf } from "../../src/dashboard/screens/workflows/editor/fields";
import type { NodeJson } from "../../src/dashboard/screens/workflows/editor/model";
import { SettingFields } from "../../src/dashboard/screens/workflows/editor/SettingFields";

const render = (node: NodeJson) =>
  renderToStaticMarkup(
    createElement(SettingFields, {
      node,
      fields: fieldsOf(node.type),
      problems: [],
      disabled: false,
      suggestions: [],
      onChange: () => {},
    }),
  );

/** The options of the select after the label `label`, and which one is selected. */
function select(html: string, label: string): { options: string[]; selected: string[] } {
  const at = html.indexOf(`>${label}</label>`);
  const start = html.indexOf("<select", at);
  const body = html.slice(start, html.indexOf("</select>", start));
  const options = [...body.matchAll(/<option[^>]*>([^<]*)<\/option>/g)].map((m) => m[1] ?? "");
  const selected = [...body.matchAll(/<option[^>]*selected=""[^>]*>([^<]*)<\/option>/g)].map(
    (m) => m[1] ?? "",
  );
  return { options, selected };
}

describe("a node's choices", () => {
  it("starts a new condition's operator on an empty Choose…", () => {
    const operator = select(render({ key: "condition_1", type: "condition" }), "Operator");
    expect(operator.options[0]).toBe("Choose…");
    expect(operator.options).toContain("equals");
    expect(operator.selected).toEqual(["Choose…"]);
  });

  it("shows a chosen operator, and an optional choice on Default", () => {
    const chosen = render({ key: "condition_1", type: "condition", operator: "exists" });
    expect(select(chosen, "Operator").selected).toEqual(["exists"]);
    const method = select(render({ key: "webhook_1", type: "webhook" }), "HTTP method (optional)");
    expect(method.options[0]).toBe("Default");
    expect(method.selected).toEqual(["Default"]);
  });
});

describe("a webhook's signature check (issue 31)", () => {
  const rotating = {
    key: "webhook_1",
    type: "webhook",
    verify: { preset: "discord", secret: ["{{secrets.NEW}}", "{{secrets.OLD}}"] },
  } as NodeJson;

  it("offers every preset, the new ones too, and the two-secret form in the field's description", () => {
    const verify = fieldsOf("webhook").find((field) => field.path === "verify");
    expect(verify?.kind).toBe("json");
    for (const preset of ["discord", "sendgrid", "postmark", "clerk", "hmac-sha1"]) {
      expect(verify?.description).toContain(preset);
    }
    expect(verify?.description).toContain('["{{secrets.NEW}}", "{{secrets.OLD}}"]');
  });

  it("renders a node with two secrets and judges it as the API saves it; a third is a problem", () => {
    const html = render(rotating);
    expect(html).toContain("{{secrets.NEW}}");
    expect(html).toContain("{{secrets.OLD}}");
    expect(checkNode(rotating)).toEqual([]);
    const three = {
      ...rotating,
      verify: { preset: "discord", secret: ["{{secrets.A}}", "{{secrets.B}}", "{{secrets.C}}"] },
    } as NodeJson;
    expect(checkNode(three).map((problem) => problem.field)).toEqual(["verify.secret"]);
    const unknown = { ...rotating, verify: { preset: "gitlub", secret: "{{secrets.A}}" } };
    expect(checkNode(unknown as NodeJson)[0]?.message).toContain("discord");
  });
});
