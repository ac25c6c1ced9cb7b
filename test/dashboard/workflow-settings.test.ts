/**
 * The editor's workflow settings (docs/dashboard.md#workflow-settings): fields built from the
 * schema the API validates `concurrency` with, and its problems in plain words as typed.
 */
import { describe, expect, it } from "vitest";
import {
  checkWorkflowSettings,
  workflowSettingFields,
} from "../../src/dashboard/screens/workflows/editor/fields";
import { concurrencySchemas } from "../../src/workflows/nodes";

describe("workflow settings", () => {
  it("are the concurrency schema's settings, optional as a whole", () => {
    const [concurrency] = workflowSettingFields();
    expect(concurrency).toMatchObject({ path: "concurrency", kind: "group", required: false });
    if (concurrency?.kind !== "group") throw new Error("not a group");
    const shape = concurrencySchemas().Concurrency.in.shape;
    expect(concurrency.fields.map((field) => field.path)).toEqual(
      Object.keys(shape).map((name) => `concurrency.${name}`),
    );
    expect(concurrency.fields[0]).toMatchObject({
      label: "Limit",
      kind: "number",
      min: 1,
      max: 100,
      integer: true,
      required: true,
    });
  });

  it("say what is wrong in plain words, by path", () => {
    expect(checkWorkflowSettings({})).toEqual([]);
    expect(checkWorkflowSettings({ concurrency: { limit: 2 } })).toEqual([]);
    expect(checkWorkflowSettings({ concurrency: { limit: 101 } })).toEqual([
      { field: "concurrency.limit", message: "Use 100 or less." },
    ]);
    expect(checkWorkflowSettings({ concurrency: { queueLimit: 5 } })).toEqual([
      { field: "concurrency.limit", message: "Enter a number." },
    ]);
  });
});
