/**
 * The Initial Parameters editor of an agent (docs/api/launch.md#parameters, docs/dashboard.md#screens): one row per
 * parameter with its name, type, whether it is required, and its allowed options. Controlled: the
 * agent editor owns the rows and validates them with the API's own schema.
 */
import { useId } from "react";
import { Field, TextField } from "../ui/Field";

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
  const problemsAt = props.problemsAt ?? (() => []);
  const id = useId();
  const update = (index: number, change: Partial<ParameterRow>) =>
    props.onChange(props.rows.map((row, at) => (at === index ? { ...row, ...change } : row)));
  return (
    <fieldset>
      <legend>Initial Parameters</legend>
      {props.rows.length === 0 ? <p className="muted">None.</p> : null}
      {props.rows.map((row, index) => {
        const at = `${id}-${index}`;
        return (
          <fieldset className="parameter" key={at}>
            <legend>Parameter {index + 1}</legend>
            <TextField
              label="Name"
              value={row.name}
              onChange={(name) => update(index, { name })}
              error={problemsAt(`parameters.${index}.name`)}
              required
            />
            <Field label="Type" error={problemsAt(`parameters.${index}.type`)}>
              {(control) => (
                <select
                  {...control}
                  value={row.type}
                  onChange={(event) =>
                    update(index, { type: event.target.value as ParameterRow["type"] })
                  }
                >
                  {TYPES.map((type) => (
                    <option key={type}>{type}</option>
                  ))}
                </select>
              )}
            </Field>
            <label className="check">
              <input
                type="checkbox"
                checked={row.required}
                onChange={(event) => update(index, { required: event.target.checked })}
              />
              Required
            </label>
            <TextField
              label="Options (comma-separated, optional)"
              value={row.options}
              onChange={(options) => update(index, { options })}
              error={problemsAt(`parameters.${index}.options`)}
            />
            <button
              type="button"
              className="start"
              onClick={() => props.onChange(props.rows.filter((_, other) => other !== index))}
            >
              Remove<span className="visually-hidden"> parameter {row.name || index + 1}</span>
            </button>
          </fieldset>
        );
      })}
      <button
        type="button"
        className="start"
        onClick={() =>
          props.onChange([
            ...props.rows,
            { name: "", type: "string", required: false, options: "" },
          ])
        }
      >
        Add a parameter
      </button>
    </fieldset>
  );
}
