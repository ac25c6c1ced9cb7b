/**
 * A form field (docs/dashboard.md#screens): its label, the control, a hint under it and what is
 * wrong with its value, wired together: the label names the control, the hint and the error
 * describe it (`aria-describedby`), and an error marks it invalid (`aria-invalid`) and is
 * announced as it appears.
 */
import { type InputHTMLAttributes, type ReactNode, useId } from "react";
import { Problems } from "./feedback";

/** What the control takes from its field: spread it on the `<input>`, `<select>`, `<textarea>`. */
export type FieldControl = {
  id: string;
  "aria-describedby"?: string;
  "aria-invalid"?: true;
};

/**
 * `children` renders the control with the attributes it is given. `hint` stands under it;
 * `error` (a sentence or several) after the hint; `describedBy` adds the ids of other
 * descriptions (a warning the form shows beside the field). Label, control, hint and error stand
 * in the form's own layout, or in a `<div>` of `className` (e.g. `field` in a filter form).
 */
export function Field(props: {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | readonly string[];
  describedBy?: string;
  className?: string;
  children: (control: FieldControl) => ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const problems = typeof props.error === "string" ? [props.error] : (props.error ?? []);
  const invalid = problems.length > 0;
  const describedBy = [
    props.hint ? hintId : null,
    props.describedBy ?? null,
    invalid ? errorId : null,
  ].filter(Boolean);
  const field = (
    <>
      <label htmlFor={id}>{props.label}</label>
      {props.children({
        id,
        ...(describedBy.length > 0 ? { "aria-describedby": describedBy.join(" ") } : {}),
        ...(invalid ? { "aria-invalid": true } : {}),
      })}
      {props.hint ? (
        <p id={hintId} className="muted hint">
          {props.hint}
        </p>
      ) : null}
      <Problems id={errorId} problems={problems} />
    </>
  );
  return props.className ? <div className={props.className}>{field}</div> : field;
}

/**
 * A labelled text input with its hint and errors (`Field`): `onChange` gets what is typed; the
 * other props are the `<input>`'s own (`name`, `maxLength`, `type`, …).
 */
export function TextField(
  props: Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange"> & {
    label: string;
    value: string;
    onChange: (value: string) => void;
    error: string[];
    hint?: ReactNode;
  },
) {
  const { label, onChange, error, hint, ...input } = props;
  return (
    <Field label={label} error={error} hint={hint}>
      {(control) => (
        <input {...input} {...control} onChange={(event) => onChange(event.target.value)} />
      )}
    </Field>
  );
}
