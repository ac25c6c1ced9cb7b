/**
 * The Analysis section of the agent editor (docs/dashboard.md#screens, docs/api/manage.md#analysis):
 * whether ended conversations are analysed, a summary checkbox and the fields, each with a name,
 * a type, a description and, for a string, its options. Controlled: the agent editor owns the
 * state and validates it with the API's own schema; a problem of the whole list (too many fields,
 * nothing asked for) shows at the top of the form.
 */
import { MAX_ANALYSIS_FIELDS } from "../../agents/schemas";
import { RowsEditor } from "../ui/RowsEditor";
import type { AnalysisState, FieldType } from "./analysis-setting";

const TYPES: FieldType[] = ["string", "number", "integer", "boolean"];

/** The section; `onChange` gets the whole state. */
export function AnalysisEditor(props: {
  state: AnalysisState;
  onChange: (state: AnalysisState) => void;
  /** The plain-words problems of a setting, by its path (`analysis.fields.1.name`). */
  problemsAt?: (path: string) => string[];
}) {
  const { state } = props;
  const set = (change: Partial<AnalysisState>) => props.onChange({ ...state, ...change });
  return (
    <fieldset>
      <legend>Analysis</legend>
      <label className="check">
        <input
          type="checkbox"
          checked={state.enabled}
          onChange={(event) => set({ enabled: event.target.checked })}
        />
        Analyse each conversation once it ended
      </label>
      {state.enabled ? (
        <>
          <label className="check">
            <input
              type="checkbox"
              checked={state.summary}
              onChange={(event) => set({ summary: event.target.checked })}
            />
            Write a summary
          </label>
          <p className="muted">
            Fields to extract, at most {MAX_ANALYSIS_FIELDS}
            {state.rows.length === 0 ? ": none." : "."}
          </p>
          <RowsEditor
            rows={state.rows}
            onChange={(rows) => set({ rows })}
            noun="field"
            blank={{ name: "", type: "string", description: "", options: "" }}
            max={MAX_ANALYSIS_FIELDS}
            path="analysis.fields"
            problemsAt={props.problemsAt ?? (() => [])}
            fields={(row, edit) => (
              <>
                {edit.text("name", "Name", true)}
                {edit.choice("type", "Type", TYPES)}
                {edit.text("description", "Description", true)}
                {row.type === "string"
                  ? edit.text("options", "Options (comma-separated, optional)")
                  : null}
              </>
            )}
          />
        </>
      ) : null}
    </fieldset>
  );
}
