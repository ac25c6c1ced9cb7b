/**
 * The filter form above a searched list (docs/dashboard.md#screens: Links, Audit log): fields side
 * by side in a named `<search>` landmark, a submit button and, while the list is filtered, a link
 * that clears the filters. The filters live in the address's query string, so Back and Forward
 * return to a search; the form is keyed on it, so its fields show the search they return to.
 */
import type { FormEvent, ReactNode } from "react";
import { followLink } from "../router";
import { Field } from "./Field";

/**
 * `label` names the landmark, `submitLabel` the button; `search` is the address's query string the
 * fields show (the screen's `useSearch()`, read once so the fields and the key agree); `names` are
 * the fields whose values make the search, handed to `onSearch` on submitting; `clear` is shown
 * while filtered. `className` is added to the form's (`filter-form`); `children` are the fields,
 * each a `FilterSelect` or a `Field` of class `field`.
 */
export function FilterForm(props: {
  label: string;
  submitLabel: string;
  search: string;
  names: readonly string[];
  onSearch: (chosen: URLSearchParams) => void;
  clear: { href: string; label: string } | null;
  className?: string;
  children: ReactNode;
}) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const chosen = new URLSearchParams();
    for (const name of props.names) chosen.set(name, String(form.get(name) ?? ""));
    props.onSearch(chosen);
  };
  return (
    <search aria-label={props.label}>
      <form
        key={props.search}
        className={props.className ? `filter-form ${props.className}` : "filter-form"}
        onSubmit={submit}
      >
        {props.children}
        <div className="actions">
          <button type="submit" className="primary">
            {props.submitLabel}
          </button>
          {props.clear ? (
            <a href={props.clear.href} onClick={followLink}>
              {props.clear.label}
            </a>
          ) : null}
        </div>
      </form>
    </search>
  );
}

/** `<option>`s of `items`, each a value and what it reads as. */
export function Options({ items }: { items: readonly { value: string; label: string }[] }) {
  return (
    <>
      {items.map((item) => (
        <option key={item.value} value={item.value}>
          {item.label}
        </option>
      ))}
    </>
  );
}

/** The options of `records` (a list query's, undefined until loaded), each its id, read as its name. */
export function byName(records: readonly { id: string; name: string }[] | undefined) {
  return (records ?? []).map((record) => ({ value: record.id, label: record.name }));
}

/**
 * A filter's choice: `label` names it, `name` is its field in the search, `value` the filter as
 * the address has it (undefined: none), `any` the first option's text, which filters nothing;
 * `children` are the other options (`Options`, `<optgroup>`s).
 */
export function FilterSelect(props: {
  label: string;
  name: string;
  value: string | undefined;
  any: string;
  children: ReactNode;
}) {
  return (
    <Field className="field" label={props.label}>
      {(control) => (
        <select {...control} name={props.name} defaultValue={props.value ?? ""}>
          <option value="">{props.any}</option>
          {props.children}
        </select>
      )}
    </Field>
  );
}
