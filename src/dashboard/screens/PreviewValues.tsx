/**
 * The values of an agent's Initial Parameters for a widget preview (docs/dashboard.md#widget-preview):
 * one field per parameter, typed as the API checks it (text, a number, a choice of its options,
 * yes or no), so the preview link is what the customer's server would create.
 */
import { type FormEvent, useId } from "react";
import type { Schemas } from "../api";

type Parameter = Schemas["Agent"]["parameters"][number];
/** Parameter values as sent: strings, numbers and booleans, absent when left empty. */
export type PreviewValueMap = Record<string, string | number | boolean>;

/** The form value of field `parameter` as the API takes it; undefined when left empty. */
function read(parameter: Parameter, raw: string): string | number | boolean | undefined {
  if (raw === "") return undefined;
  if (parameter.type === "boolean") return raw === "true";
  if (parameter.type === "number" || parameter.type === "integer") return Number(raw);
  return raw;
}

function Field({ parameter, value }: { parameter: Parameter; value: unknown }) {
  const id = useId();
  const hint = parameter.description ? `${id}-hint` : undefined;
  const initial = value === undefined ? "" : String(value);
  const label = (
    <label htmlFor={id}>
      {parameter.name}
      {parameter.required ? " (required)" : ""}
    </label>
  );
  const choices =
    parameter.type === "boolean"
      ? [
          ["true", "Yes"],
          ["false", "No"],
        ]
      : (parameter.options ?? []).map((option) => [String(option), String(option)]);
  return (
    <div className="stack preview-field">
      {label}
      {choices.length > 0 ? (
        <select
          id={id}
          name={parameter.name}
          required={parameter.required}
          defaultValue={initial}
          aria-describedby={hint}
        >
          <option value="">{parameter.required ? "Choose…" : "Not sent"}</option>
          {choices.map(([choice, text]) => (
            <option key={choice} value={choice}>
              {text}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          name={parameter.name}
          required={parameter.required}
          defaultValue={initial}
          aria-describedby={hint}
          type={parameter.type === "string" ? "text" : "number"}
          step={parameter.type === "integer" ? 1 : parameter.type === "number" ? "any" : undefined}
        />
      )}
      {hint ? (
        <p id={hint} className="muted preview-note">
          {parameter.description}
        </p>
      ) : null}
    </div>
  );
}

export function PreviewValues(props: {
  parameters: Parameter[];
  values: PreviewValueMap | null;
  onSubmit: (values: PreviewValueMap) => void;
}) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const values: PreviewValueMap = {};
    for (const parameter of props.parameters) {
      const value = read(parameter, String(form.get(parameter.name) ?? ""));
      if (value !== undefined) values[parameter.name] = value;
    }
    props.onSubmit(values);
  };
  return (
    <form className="stack" onSubmit={submit}>
      <p className="muted">Values of the Initial Parameters, as your server would send them:</p>
      <div className="preview-fields">
        {props.parameters.map((parameter) => (
          <Field
            key={parameter.name}
            parameter={parameter}
            value={props.values?.[parameter.name]}
          />
        ))}
      </div>
      <button type="submit" className="primary start">
        Show the preview
      </button>
    </form>
  );
}
