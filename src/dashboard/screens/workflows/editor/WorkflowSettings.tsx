/**
 * The workflow's own settings (docs/dashboard.md#workflow-settings), shown in the side panel while
 * no node is selected: its `concurrency` (and per-key flow control), as fields built from the
 * schema the API validates it with (fields.ts), with the schema's problems as you type and the
 * API's from the last save.
 */
import { useId, useState } from "react";
import type { Schemas } from "../../../api";
import { type DetailLike, detailText } from "../../../ui/problem-text";
import {
  checkWorkflowSettings,
  mergeProblems,
  workflowSettingFields,
  workflowSettingLabels,
} from "./fields";
import type { FieldProblem } from "./model";
import { SettingFields } from "./SettingFields";
import type { Suggestion } from "./suggestions";

/** The workflow's settings the editor changes; saved with the definition. */
export type WorkflowSettingsValue = { concurrency?: unknown };

type Props = {
  settings: WorkflowSettingsValue;
  /** The API's problems with them from the last save, in plain words. */
  saved: FieldProblem[];
  canChange: boolean;
  /** The fields a template setting (the concurrency key) may read: the webhook's call. */
  suggestions: Suggestion[];
  onChange: (settings: WorkflowSettingsValue) => void;
};

/** The panel; read-only unless `canChange`. */
export function WorkflowSettings({ settings, saved, canChange, suggestions, onChange }: Props) {
  const id = useId();
  const problems = mergeProblems(saved, checkWorkflowSettings(settings));
  return (
    <section className="node-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Workflow settings</h2>
      <p className="muted">Select a node to see its settings.</p>
      <SettingFields
        node={settings}
        fields={workflowSettingFields()}
        problems={problems}
        disabled={!canChange}
        suggestions={suggestions}
        onChange={onChange}
      />
    </section>
  );
}

/** Whether a problem of a refused save is one of the workflow's own settings'. */
const isSetting = (detail: DetailLike) => /^concurrency($|[.[])/.test(detail.field ?? "");

/**
 * The workflow's settings as the editor holds them until Save: their value, whether they changed,
 * and the API's problems with them.
 */
export function useWorkflowSettings(workflow: Schemas["Workflow"]) {
  const [settings, setSettings] = useState<WorkflowSettingsValue>(() =>
    workflow.concurrency ? { concurrency: workflow.concurrency } : {},
  );
  const [dirty, setDirty] = useState(false);
  const [saved, setSaved] = useState<FieldProblem[]>([]);
  return {
    settings,
    dirty,
    saved,
    change: (next: WorkflowSettingsValue) => {
      setSettings(next);
      setDirty(true);
    },
    /** The body's part: null removes a limit the workflow had. */
    body: () => ({
      concurrency: (settings.concurrency ?? null) as Schemas["WorkflowInput"]["concurrency"],
    }),
    /** After a save: the settings are saved as they are. */
    savedNow: () => {
      setDirty(false);
      setSaved([]);
    },
    /** After a refused save: keeps the settings' problems and returns the others (the nodes'). */
    refused: <T extends DetailLike>(details: T[]): T[] => {
      const labels = workflowSettingLabels();
      setSaved(
        details
          .filter(isSetting)
          .map((detail) => ({ field: detail.field ?? "", message: detailText(detail, labels) })),
      );
      return details.filter((detail) => !isSetting(detail));
    },
  };
}
