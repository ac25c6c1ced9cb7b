/**
 * "Type to add" (docs/dashboard.md#workflow-editor): a combobox listing the node types, filtered
 * as you type; arrows choose, Enter adds the chosen type (as the palette's button would), Escape
 * clears. "/" anywhere in the editor (shortcuts.ts) puts the focus here.
 */
import { type KeyboardEvent, type RefObject, useId, useState } from "react";
import { DEFAULT_NAMES, NODE_TYPES, type NodeType } from "../../../../workflows/nodes";

/** The node types whose name or type contains every word of `query` (all of them for ""). */
export function matchingTypes(query: string): NodeType[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return NODE_TYPES.filter((type) => {
    const text = `${DEFAULT_NAMES[type]} ${type.replaceAll("_", " ")}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}

/** The search box; `onAdd(type)` adds the chosen type. */
export function NodeSearch(props: {
  onAdd: (type: NodeType) => void;
  inputRef: RefObject<HTMLInputElement | null>;
}) {
  const id = useId();
  const [query, setQuery] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const found = matchingTypes(query);
  const chosen = found[Math.min(active, found.length - 1)];
  const add = (type: NodeType | undefined) => {
    if (!type) return;
    props.onAdd(type);
    setQuery("");
    setOpen(false);
  };
  const keys = (event: KeyboardEvent<HTMLInputElement>) => {
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1 };
    const move = moves[event.key];
    if (move !== undefined && found.length > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((Math.min(active, found.length - 1) + move + found.length) % found.length);
    } else if (event.key === "Enter") {
      event.preventDefault();
      add(chosen);
    } else if (event.key === "Escape") {
      setQuery("");
      setOpen(false);
    }
  };
  const shown = open && found.length > 0;
  return (
    <div className="node-search">
      <label htmlFor={`${id}-input`} className="visually-hidden">
        Search node types
      </label>
      <input
        id={`${id}-input`}
        ref={props.inputRef}
        role="combobox"
        aria-expanded={shown}
        aria-controls={`${id}-list`}
        aria-autocomplete="list"
        aria-activedescendant={shown && chosen ? `${id}-${chosen}` : undefined}
        placeholder="Type to add… ( / )"
        value={query}
        autoComplete="off"
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={keys}
      />
      <div id={`${id}-list`} role="listbox" aria-label="Node types" hidden={!shown}>
        {found.map((type) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox's input takes the keys.
          <div
            key={type}
            tabIndex={-1}
            id={`${id}-${type}`}
            role="option"
            aria-selected={type === chosen}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => add(type)}
          >
            {DEFAULT_NAMES[type]}
          </div>
        ))}
      </div>
      {query !== "" && found.length === 0 ? (
        <span className="muted" role="status">
          No node type matches.
        </span>
      ) : null}
    </div>
  );
}
