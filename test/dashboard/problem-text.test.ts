/**
 * Problems in plain words (docs/dashboard.md#forms-and-problems): the API's detail codes and the
 * browser's zod issues as sentences with the field's label, list items numbered from 1.
 */
import { describe, expect, it } from "vitest";
import { CreateAgentSchema } from "../../src/agents/schemas";
import {
  detailText,
  issueText,
  placeDetails,
  placeIssues,
  placeOf,
  segmentsOf,
  validityText,
} from "../../src/dashboard/ui/problem-text";
import { DETAIL_CODES } from "../../src/platform/detail-codes";

const SCHEMA_WORDS = /Too (small|big)|Invalid (input|option)|expected|received|>=|<=/;

function agentIssues(body: unknown) {
  const checked = CreateAgentSchema.safeParse(body);
  if (checked.success) throw new Error("expected a refusal");
  return checked.error.issues;
}

describe("problem text", () => {
  it("numbers list items as the person sees them, from either path form", () => {
    expect(segmentsOf("parameters.1.name")).toEqual(["parameters", 1, "name"]);
    expect(segmentsOf("parameters[1].name")).toEqual(["parameters", 1, "name"]);
    expect(placeOf(segmentsOf("parameters[1].name"))).toBe("Parameter 2");
    expect(placeOf(segmentsOf("nodes[0].headers[2]"))).toBe("Node 1, header 3");
    expect(placeOf(segmentsOf("name"))).toBe("");
  });

  it("says an empty agent name, a too-long one and a bad mode in plain words", () => {
    const labels = { name: { label: "Name" }, mode: { label: "Mode", kind: "choice" as const } };
    const empty = placeIssues(agentIssues({ name: "", mode: "initiator" }), labels);
    expect(empty).toEqual([{ field: "name", path: "name", message: "Enter a name." }]);
    const long = placeIssues(agentIssues({ name: "x".repeat(201), mode: "nope" }), labels);
    expect(long.map((problem) => problem.message)).toEqual([
      "Use at most 200 characters.",
      "Choose a mode.",
    ]);
  });

  it("puts a second parameter's problems under Parameter 2, never 0-based", () => {
    const issues = agentIssues({
      name: "A",
      mode: "initiator",
      parameters: [
        { name: "a", type: "string" },
        { name: "a", type: "string" },
        { name: "1x", type: "string" },
      ],
    });
    const placed = placeIssues(issues);
    expect(placed).toContainEqual({
      field: "parameters.name",
      path: "parameters.1.name",
      message: "Parameter 2: this name is used twice.",
    });
    expect(placed).toContainEqual({
      field: "parameters.name",
      path: "parameters.2.name",
      message: "Parameter 3: a letter or _, then letters, digits or _.",
    });
  });

  it("says the API's details in the same words as the browser's check", () => {
    expect(
      detailText({
        field: "name",
        code: "out_of_range",
        message: "Too big: expected string to have <=64 characters",
      }),
    ).toBe("Use at most 64 characters.");
    expect(
      detailText({
        field: "name",
        code: "out_of_range",
        message: "Too small: expected string to have >=1 characters",
      }),
    ).toBe("Enter a name.");
    expect(
      detailText(
        { field: "operator", code: "required", message: "operator is required." },
        {
          operator: { label: "Operator", kind: "choice" },
        },
      ),
    ).toBe("Choose an operator.");
    expect(
      detailText(
        { field: "fields", code: "invalid_type", message: "Invalid input" },
        {
          fields: { label: "Fields", kind: "json" },
        },
      ),
    ).toBe("Enter the fields as a JSON object.");
    expect(
      detailText({
        field: "fields",
        code: "invalid_type",
        message: "Invalid input: expected record, received undefined",
      }),
    ).toBe("Enter the fields as a JSON object.");
    expect(
      detailText({ field: "email", code: "invalid_format", message: "Invalid email address" }),
    ).toBe("Enter an email address, like name@example.com.");
    expect(
      detailText({
        field: "role",
        code: "invalid_option",
        message: 'Invalid option: expected one of "owner"|"admin"',
      }),
    ).toBe("Use one of: owner, admin.");
    expect(
      detailText({
        field: "parameters[1].name",
        code: "invalid_value",
        message: "Duplicate parameter name.",
      }),
    ).toBe("Parameter 2: this name is used twice.");
    expect(
      detailText({
        field: "url",
        code: "invalid_type",
        message: "Credentials are not allowed in the URL; the signature authenticates us.",
      }),
    ).toBe("Credentials are not allowed in the URL; the signature authenticates us.");
    expect(detailText({ field: "name", code: "invalid_type", message: "Expected string." })).toBe(
      "Enter the name as text.",
    );
    expect(
      detailText({ field: "email", code: "required", message: "This field is required." }),
    ).toBe("Enter an email.");
    // A rule's own message is already plain: kept.
    expect(detailText({ field: "left", code: "invalid_reference", message: "Not earlier." })).toBe(
      "Not earlier.",
    );
  });

  it("never shows schema text for any detail code", () => {
    const texts = [
      "Too small: expected number to be >=1",
      "Invalid input",
      'Invalid option: expected one of "a"|"b"',
    ];
    for (const code of Object.keys(DETAIL_CODES)) {
      for (const message of texts) {
        const said = detailText({ field: "nodes[2].seconds", code, message });
        expect(said, `${code} ${message}`).not.toMatch(SCHEMA_WORDS);
        expect(said).toMatch(/^Node 3: /);
      }
    }
  });

  it("places a detail naming no field on the form as a whole", () => {
    expect(placeDetails([{ code: "invalid_value", message: "The agent is in use" }])).toEqual([
      { field: "", path: "", message: "The agent is in use." },
    ]);
  });

  it("says what the browser's own checks refused as the API's details are said", () => {
    const control = { type: "text", maxLength: 200, minLength: -1, min: "", max: "" };
    const name = { label: "Name" };
    expect(validityText({ ...control, validity: { valueMissing: true } }, name)).toBe(
      "Enter a name.",
    );
    expect(validityText({ ...control, validity: { tooLong: true } }, name)).toBe(
      "Use at most 200 characters.",
    );
    expect(
      validityText({ ...control, type: "url", validity: { typeMismatch: true } }, { label: "URL" }),
    ).toBe("Enter a full URL, like https://example.com/hook.");
    expect(
      validityText({ ...control, type: "email", validity: { typeMismatch: true } }, name),
    ).toBe("Enter an email address, like name@example.com.");
  });

  it("says a number out of range and a whole number", () => {
    expect(
      issueText({
        code: "too_big",
        origin: "number",
        maximum: 100,
        path: ["seconds"],
        message: "Invalid input: expected int, received number",
      }),
    ).toBe("Use 100 or less.");
    expect(
      issueText({
        code: "invalid_type",
        expected: "int",
        path: ["seconds"],
        message: "Invalid input: expected int, received number",
        input: 1.5,
      }),
    ).toBe("Use a whole number.");
  });
});
