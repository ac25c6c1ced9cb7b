/**
 * A node's settings in the side panel (docs/dashboard.md#workflow-editor): one input per field of
 * its schema (fields.ts), with the schema's range and description, and the problems of that
 * setting (the schema's as you type, the API's from the last save) next to it, in plain words
 * that say where inside the setting they stand ("Event 1: …").
 */
import { useEffect, useId, useState } from "react";
import { type Field, problemsAt } from "./fields";
import type { FieldProblem } from "./model";
import type { Suggestion } from "./suggestions";
import { TemplateInput } from "./TemplateInput";
import { getAt, setAt, textToValue, valueToText } from "./values";

/** `node` is any settings object: a node's JSON, or the workflow's own settings. */
type Props = {
  node: Settings;
  fields: Field[];
  problems: FieldProblem[];
  disabled: boolean;
  suggestions: Suggestion[];
  onChange: (node: Settings) => void;
};

type Settings = Record<string, unknown>;

/** The node's settings as inputs; every change hands the whole new node JSON to `onChange`. */
export function SettingFields(props: Props) {
  return (
    <>
      {props.fields.map((field) => (
        <SettingField key={field.path} {...props} field={field} />
      ))}
    </>
  );
}

function SettingField(props: Props & { field: Field }) {
  const { field, node } = props;
  const id = useId();
  // A group's settings show their own problems; the group those of it as a whole.
  const inner = field.kind === "group" ? field.fields : [];
  const problems = problemsAt(props.problems, field.path).filter(
    (problem) => !inner.some((child) => problemsAt([problem], child.path).length > 0),
  );
  const set = (value: unknown) => props.onChange(setAt(node, field.path, value));
  const value = getAt(node, field.path);
  const described = `${id}-about ${id}-problems`;
  const about = (
    <>
      {field.description ? (
        <small id={`${id}-about`} className="muted">
          {field.description}
        </small>
      ) : null}
      <ul id={`${id}-problems`} className="field-problems">
        {problems.map((problem) => (
          <li key={`${problem.field} ${problem.message}`} className="error">
            {problem.message}
          </li>
        ))}
      </ul>
    </>
  );
  const common = {
    id,
    disabled: props.disabled,
    "aria-invalid": problems.length > 0 || undefined,
    "aria-describedby": described,
  };
  const title = `${field.label}${field.required ? "" : " (optional)"}`;
  switch (field.kind) {
    case "group":
      return (
        <fieldset className="setting-group">
          <legend>{title}</legend>
          {about}
          {field.offable ? (
            <label className="check">
              <input
                type="checkbox"
                disabled={props.disabled}
                checked={value === false}
                onChange={(event) => set(event.target.checked ? false : undefined)}
              />{" "}
              Off (<code>false</code>)
            </label>
          ) : null}
          <SettingFields
            node={node}
            fields={field.fields}
            problems={props.problems}
            disabled={props.disabled || value === false}
            suggestions={props.suggestions}
            onChange={props.onChange}
          />
        </fieldset>
      );
    case "choices": {
      const chosen = Array.isArray(value) ? (value as string[]) : [];
      return (
        <fieldset className="setting-group">
          <legend>{title}</legend>
          {field.options.map((option) => (
            <label key={option} className="check">
              <input
                type="checkbox"
                disabled={props.disabled}
                checked={chosen.includes(option)}
                onChange={(event) =>
                  set(
                    event.target.checked
                      ? [...chosen, option]
                      : chosen.filter((item) => item !== option),
                  )
                }
              />{" "}
              {option}
            </label>
          ))}
          {about}
        </fieldset>
      );
    }
    case "boolean":
      return (
        <div className="setting">
          <label className="check">
            <input
              type="checkbox"
              {...common}
              checked={value === true}
              onChange={(event) => set(event.target.checked ? true : undefined)}
            />{" "}
            {field.label}
          </label>
          {about}
        </div>
      );
    default:
      return (
        <div className="setting">
          <label htmlFor={id}>{title}</label>
          <Input {...props} common={common} value={value} set={set} />
          {about}
        </div>
      );
  }
}

type InputProps = Props & {
  field: Field;
  common: { id: string; disabled: boolean; "aria-describedby": string };
  value: unknown;
  set: (value: unknown) => void;
};

function Input({ field, common, value, set, suggestions }: InputProps) {
  const invalid = "aria-invalid" in common && Boolean(common["aria-invalid"]);
  switch (field.kind) {
    case "choice":
      return (
        <select
          {...common}
          value={String(value ?? "")}
          onChange={(e) => set(e.target.value || undefined)}
        >
          {/* Never a value it does not have: a required choice starts on "Choose…" (unset). */}
          <option value="" disabled={field.required}>
            {field.required ? "Choose…" : "Default"}
          </option>
          {field.options.map((option) => (
            <option key={option}>{option}</option>
          ))}
        </select>
      );
    case "number":
      return (
        <input
          {...common}
          type="number"
          inputMode={field.integer ? "numeric" : "decimal"}
          min={field.min}
          max={field.max}
          step={field.integer ? 1 : "any"}
          value={typeof value === "number" ? value : ""}
          onChange={(e) => set(e.target.value === "" ? undefined : Number(e.target.value))}
        />
      );
    case "json":
      return (
        <JsonInput
          {...common}
          field={field}
          value={value}
          set={set}
          suggestions={suggestions}
          invalid={invalid}
        />
      );
    default: {
      const text = field.kind === "value" ? valueToText(value) : String(value ?? "");
      const read = (typed: string) =>
        set(field.kind === "value" ? textToValue(typed) : typed || undefined);
      return (
        <TemplateInput
          id={common.id}
          label={field.label}
          value={text}
          multiline={false}
          json={false}
          disabled={common.disabled}
          invalid={invalid}
          describedBy={common["aria-describedby"]}
          suggestions={field.templated ? suggestions : []}
          onChange={read}
        />
      );
    }
  }
}

/** A JSON setting: the text is kept as typed, and the setting changes whenever it parses. */
function JsonInput(props: {
  id: string;
  disabled: boolean;
  "aria-describedby": string;
  field: Field;
  value: unknown;
  invalid: boolean;
  suggestions: Suggestion[];
  set: (value: unknown) => void;
}) {
  const shown = props.value === undefined ? "" : JSON.stringify(props.value, null, 2);
  const [text, setText] = useState(shown);
  const [bad, setBad] = useState(false);
  // Another node selected, or the value changed elsewhere: show it, unless it is what was typed.
  useEffect(() => {
    setText((typed) => (sameJson(typed, props.value) ? typed : shown));
  }, [props.value, shown]);
  const change = (typed: string) => {
    setText(typed);
    if (typed.trim() === "") {
      setBad(false);
      props.set(undefined);
      return;
    }
    try {
      props.set(JSON.parse(typed));
      setBad(false);
    } catch {
      setBad(true);
    }
  };
  return (
    <>
      <TemplateInput
        id={props.id}
        label={props.field.label}
        value={text}
        multiline
        json
        disabled={props.disabled}
        invalid={props.invalid || bad}
        describedBy={props["aria-describedby"]}
        suggestions={props.field.templated ? props.suggestions : []}
        onChange={change}
      />
      {bad ? <p className="error">Not valid JSON yet; the last valid value is kept.</p> : null}
    </>
  );
}

function sameJson(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}
