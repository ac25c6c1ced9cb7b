/**
 * A list of like rows edited in place (docs/dashboard.md#screens: an agent's Initial Parameters,
 * its analysis fields): each row a numbered fieldset of its fields and a Remove button, then a
 * button adding a row. Controlled: the form around it owns the rows and checks them.
 */
import { type ReactNode, useId } from "react";
import { Field, TextField } from "./Field";

/** What a row's fields are built with: its changes, and its fields' problems by name. */
export type RowEdit<R> = {
  update: (change: Partial<R>) => void;
  /** The problems of the row's field `name` (`parameters.1.name`). */
  problems: (name: keyof R & string) => string[];
  /** A text field of the row's string field `name`. */
  text: (name: StringKeys<R>, label: string, required?: boolean) => ReactNode;
  /** A choice of `choices` for the row's field `name`. */
  choice: (name: StringKeys<R>, label: string, choices: readonly string[]) => ReactNode;
};

type StringKeys<R> = { [K in keyof R]: R[K] extends string ? K : never }[keyof R] & string;

/**
 * `rows`, each a fieldset headed "`Noun` N" (`noun` names a row: "parameter") holding `fields`
 * and "Remove" (named "Remove parameter NAME" for screen readers); then "Add a `noun`", which
 * appends `blank`, disabled once there are `max` rows. `path` is where the rows' problems are
 * (`parameters`: `problemsAt("parameters.1.name")`). `onChange` gets all the rows.
 */
export function RowsEditor<R extends { name: string }>(props: {
  rows: R[];
  onChange: (rows: R[]) => void;
  noun: string;
  blank: NoInfer<R>;
  max?: number;
  path: string;
  problemsAt: (path: string) => string[];
  fields: (row: R, edit: RowEdit<R>) => ReactNode;
}) {
  const id = useId();
  const { rows, onChange, noun } = props;
  const editOf = (row: R, index: number): RowEdit<R> => {
    const update = (change: Partial<R>) =>
      onChange(rows.map((other, at) => (at === index ? { ...other, ...change } : other)));
    const problems = (name: string) => props.problemsAt(`${props.path}.${index}.${name}`);
    return {
      update,
      problems,
      text: (name, label, required) => (
        <TextField
          label={label}
          value={row[name] as string}
          onChange={(value) => update({ [name]: value } as Partial<R>)}
          error={problems(name)}
          required={required}
        />
      ),
      choice: (name, label, choices) => (
        <Field label={label} error={problems(name)}>
          {(control) => (
            <select
              {...control}
              value={row[name] as string}
              onChange={(event) => update({ [name]: event.target.value } as Partial<R>)}
            >
              {choices.map((choice) => (
                <option key={choice}>{choice}</option>
              ))}
            </select>
          )}
        </Field>
      ),
    };
  };
  const heading = `${noun.charAt(0).toUpperCase()}${noun.slice(1)}`;
  return (
    <>
      {rows.map((row, index) => {
        // Rows have no id of their own; the list only grows at the end or loses a row.
        const key = `${id}-${index}`;
        return (
          <fieldset className="parameter" key={key}>
            <legend>
              {heading} {index + 1}
            </legend>
            {props.fields(row, editOf(row, index))}
            <button
              type="button"
              className="start"
              onClick={() => onChange(rows.filter((_, other) => other !== index))}
            >
              Remove
              <span className="visually-hidden">
                {" "}
                {noun} {row.name || index + 1}
              </span>
            </button>
          </fieldset>
        );
      })}
      <button
        type="button"
        className="start"
        disabled={props.max !== undefined && rows.length >= props.max}
        onClick={() => onChange([...rows, props.blank])}
      >
        Add a {noun}
      </button>
    </>
  );
}
