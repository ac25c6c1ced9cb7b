/**
 * The values of an agent's Initial Parameters for a widget preview (docs/dashboard.md#widget-preview):
 * one field per parameter, typed as the API checks it (text, a number, a choice of its options,
 * yes or no), so the preview link is what the customer's server would create.
 */
import type { FormEvent } from "react";
import type { Schemas } from "../api";
import { Field } from "../ui/Field";

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

/** The field of `parameter`: a choice for a boolean or one with options, else a text or number. */
function ParameterField({ parameter, value }: { parameter: Parameter; value: unknown }) {
  const initial = value === undefined ? "" : String(value);
  const choices =
    parameter.type === "boolean"
      ? [
          ["true", "Yes"],
          ["false", "No"],
        ]
      : (parameter.options ?? []).map((option) => [String(option), String(option)]);
  const common = { name: parameter.name, required: parameter.required, defaultValue: initial };
  return (
    <Field
      className="stack preview-field"
      label={`${parameter.name}${parameter.required ? " (required)" : ""}`}
      hint={parameter.description}
    >
      {(control) =>
        choices.length > 0 ? (
          <select {...control} {...common}>
            <option value="">{parameter.required ? "Choose…" : "Not sent"}</option>
            {choices.map(([choice, text]) => (
              <option key={choice} value={choice}>
                {text}
              </option>
            ))}
          </select>
        ) : (
          <input
            {...control}
            {...common}
            type={parameter.type === "string" ? "text" : "number"}
            step={
              parameter.type === "integer" ? 1 : parameter.type === "number" ? "any" : undefined
            }
          />
        )
      }
    </Field>
  );
}

/** The values of `parameters`, filled with `values`; `onSubmit` gets them as the API takes them. */
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
          <ParameterField
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
