/**
 * The Analysis section of the agent editor (docs/dashboard.md#screens, docs/api/manage.md#analysis):
 * whether ended conversations are analysed, a summary checkbox and the fields, each with a name,
 * a type, a description and, for a string, its options. Controlled: the agent editor owns the
 * state and validates it with the API's own schema; a problem of the whole list (too many fields,
 * nothing asked for) shows at the top of the form.
 */
import { useId } from "react";
import { MAX_ANALYSIS_FIELDS } from "../../agents/schemas";
import { Field, TextField } from "../ui/Field";
import type { AnalysisFieldRow, AnalysisState, FieldType } from "./analysis-setting";

const TYPES: FieldType[] = ["string", "number", "integer", "boolean"];

/** The section; `onChange` gets the whole state. */
export function AnalysisEditor(props: {
  state: AnalysisState;
  onChange: (state: AnalysisState) => void;
  /** The plain-words problems of a setting, by its path (`analysis.fields.1.name`). */
  problemsAt?: (path: string) => string[];
}) {
  const problemsAt = props.problemsAt ?? (() => []);
  const id = useId();
  const { state } = props;
  const set = (change: Partial<AnalysisState>) => props.onChange({ ...state, ...change });
  const update = (index: number, change: Partial<AnalysisFieldRow>) =>
    set({ rows: state.rows.map((row, at) => (at === index ? { ...row, ...change } : row)) });
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
          {state.rows.map((row, index) => {
            const at = `${id}-${index}`;
            const path = `analysis.fields.${index}`;
            return (
              <fieldset className="parameter" key={at}>
                <legend>Field {index + 1}</legend>
                <TextField
                  label="Name"
                  value={row.name}
                  onChange={(name) => update(index, { name })}
                  error={problemsAt(`${path}.name`)}
                  required
                />
                <Field label="Type" error={problemsAt(`${path}.type`)}>
                  {(control) => (
                    <select
                      {...control}
                      value={row.type}
                      onChange={(event) => update(index, { type: event.target.value as FieldType })}
                    >
                      {TYPES.map((type) => (
                        <option key={type}>{type}</option>
                      ))}
                    </select>
                  )}
                </Field>
                <TextField
                  label="Description"
                  value={row.description}
                  onChange={(description) => update(index, { description })}
                  error={problemsAt(`${path}.description`)}
                  required
                />
                {row.type === "string" ? (
                  <TextField
                    label="Options (comma-separated, optional)"
                    value={row.options}
                    onChange={(options) => update(index, { options })}
                    error={problemsAt(`${path}.options`)}
                  />
                ) : null}
                <button
                  type="button"
                  className="start"
                  onClick={() => set({ rows: state.rows.filter((_, other) => other !== index) })}
                >
                  Remove<span className="visually-hidden"> field {row.name || index + 1}</span>
                </button>
              </fieldset>
            );
          })}
          <button
            type="button"
            className="start"
            disabled={state.rows.length >= MAX_ANALYSIS_FIELDS}
            onClick={() =>
              set({
                rows: [...state.rows, { name: "", type: "string", description: "", options: "" }],
              })
            }
          >
            Add a field
          </button>
        </>
      ) : null}
    </fieldset>
  );
}
