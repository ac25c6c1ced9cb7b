/**
 * The Initial Parameters editor of an agent (docs/api/launch.md#parameters, docs/dashboard.md#screens): one row per
 * parameter with its name, type, whether it is required, and its allowed options. Controlled: the
 * agent editor owns the rows and validates them with the API's own schema.
 */
import { RowsEditor } from "../ui/RowsEditor";

/** One parameter as edited: options as the text typed, comma-separated. */
export type ParameterRow = {
  name: string;
  type: "string" | "number" | "integer" | "boolean";
  required: boolean;
  options: string;
};

const TYPES = ["string", "number", "integer", "boolean"] as const;

/** The rows as the API takes them: options split and typed by the parameter's type. */
export function toParameters(rows: ParameterRow[]) {
  return rows.map((row) => {
    const options = row.options
      .split(",")
      .map((option) => option.trim())
      .filter((option) => option.length > 0)
      .map((option) =>
        row.type === "string"
          ? option
          : row.type === "boolean"
            ? option === "true"
            : Number(option),
      );
    return {
      name: row.name.trim(),
      type: row.type,
      required: row.required,
      ...(options.length > 0 ? { options } : {}),
    };
  });
}

/** The rows, each editable and removable, and a button adding one; `onChange` gets them all. */
export function ParametersEditor(props: {
  rows: ParameterRow[];
  onChange: (rows: ParameterRow[]) => void;
  /** The plain-words problems of a setting, by its path (`parameters.1.name`). */
  problemsAt?: (path: string) => string[];
}) {
  return (
    <fieldset>
      <legend>Initial Parameters</legend>
      {props.rows.length === 0 ? <p className="muted">None.</p> : null}
      <RowsEditor
        rows={props.rows}
        onChange={props.onChange}
        noun="parameter"
        blank={{ name: "", type: "string", required: false, options: "" }}
        path="parameters"
        problemsAt={props.problemsAt ?? (() => [])}
        fields={(row, edit) => (
          <>
            {edit.text("name", "Name", true)}
            {edit.choice("type", "Type", TYPES)}
            <label className="check">
              <input
                type="checkbox"
                checked={row.required}
                onChange={(event) => edit.update({ required: event.target.checked })}
              />
              Required
            </label>
            {edit.text("options", "Options (comma-separated, optional)")}
          </>
        )}
      />
    </fieldset>
  );
}
