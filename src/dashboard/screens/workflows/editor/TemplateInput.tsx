/**
 * A template setting's input (docs/dashboard.md#workflow-editor): a text field or a JSON area, and
 * beside it a list of the fields the node can read (earlier nodes, captured samples, secrets)
 * that inserts the chosen one at the caret.
 */
import { type ChangeEvent, useRef } from "react";
import type { Suggestion } from "./suggestions";

type Props = {
  id: string;
  label: string;
  value: string;
  multiline: boolean;
  /** In a JSON area, a field inserted outside a string is quoted so the JSON stays valid. */
  json: boolean;
  disabled: boolean;
  invalid: boolean;
  describedBy: string;
  suggestions: Suggestion[];
  onChange: (text: string) => void;
};

/** Whether `caret` in JSON `text` is inside a string literal (an odd count of unescaped quotes). */
export function insideJsonString(text: string, caret: number): boolean {
  let inside = false;
  for (let i = 0; i < caret; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') inside = !inside;
  }
  return inside;
}

/** The input, and when there are suggestions the "Insert a field" list after it. */
export function TemplateInput(props: Props) {
  const field = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const caret = useRef<number | null>(null);
  const remember = () => {
    caret.current = field.current?.selectionStart ?? null;
  };
  const insert = (event: ChangeEvent<HTMLSelectElement>) => {
    const template = event.target.value;
    event.target.value = "";
    if (!template) return;
    const at = caret.current ?? props.value.length;
    const quoted = props.json && !insideJsonString(props.value, at);
    const text = quoted ? JSON.stringify(template) : template;
    props.onChange(props.value.slice(0, at) + text + props.value.slice(at));
    caret.current = at + text.length;
    field.current?.focus();
  };
  const common = {
    id: props.id,
    ref: field,
    value: props.value,
    disabled: props.disabled,
    spellCheck: false,
    "aria-invalid": props.invalid || undefined,
    "aria-describedby": props.describedBy,
    onSelect: remember,
    onKeyUp: remember,
    onBlur: remember,
  };
  const groups = new Map<string, Suggestion[]>();
  for (const suggestion of props.suggestions) {
    groups.set(suggestion.from, [...(groups.get(suggestion.from) ?? []), suggestion]);
  }
  return (
    <div className="template-input">
      {props.multiline ? (
        <textarea {...common} rows={4} onChange={(event) => props.onChange(event.target.value)} />
      ) : (
        <input {...common} onChange={(event) => props.onChange(event.target.value)} />
      )}
      {props.suggestions.length > 0 && !props.disabled ? (
        <select aria-label={`Insert a field into ${props.label}`} defaultValue="" onChange={insert}>
          <option value="">Insert a field…</option>
          {[...groups].map(([from, list]) => (
            <optgroup key={from} label={from}>
              {list.map(({ template }) => (
                <option key={template} value={template}>
                  {template}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      ) : null}
    </div>
  );
}
