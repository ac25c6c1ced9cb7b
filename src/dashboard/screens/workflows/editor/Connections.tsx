/**
 * The selected node's connections (docs/dashboard.md#workflow-editor): where it leads, each with
 * Remove, and a form to connect it to another node (a condition or ask_person: on one of its branches).
 * Dragging between handles on the canvas does the same; this is the way by keyboard.
 */
import { type FormEvent, useId, useState } from "react";
import { branchesOf, DEFAULT_NAMES } from "../../../../workflows/nodes";
import { isTrigger } from "./CanvasNode";
import type { CanvasNode } from "./model";
import type { EditorState } from "./use-editor";

const nameOf = (node: CanvasNode | undefined) =>
  node
    ? `${node.data.node.name ?? DEFAULT_NAMES[node.data.node.type]} (${node.data.node.key})`
    : "?";

/** `node`'s outgoing connections; Owners and Admins add and remove them. */
export function Connections(props: { node: CanvasNode; editor: EditorState; canChange: boolean }) {
  const { node, editor } = props;
  const id = useId();
  const [said, setSaid] = useState("");
  const byId = new Map(editor.nodes.map((each) => [each.id, each]));
  const leaving = editor.edges.filter((edge) => edge.source === node.id);
  const targets = editor.nodes.filter(
    (each) => each.id !== node.id && !isTrigger(each.data.node.type),
  );
  const branches = branchesOf(node.data.node.type);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const target = String(form.get("target") ?? "");
    const branch = branches.length > 0 ? String(form.get("branch") ?? "") : null;
    const why = props.editor.connect(node.id, target, branch);
    setSaid(why || `Connected to ${nameOf(byId.get(target))}.`);
  };
  return (
    <section className="connections" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Leads to</h3>
      {leaving.length === 0 ? <p className="muted">Nothing yet.</p> : null}
      <ul>
        {leaving.map((edge) => (
          <li key={edge.id}>
            {edge.sourceHandle ? <span className="muted">{edge.sourceHandle}: </span> : null}
            {nameOf(byId.get(edge.target))}{" "}
            {props.canChange ? (
              <button
                type="button"
                className="link-button"
                onClick={() => editor.disconnect(edge.id)}
              >
                Remove
                <span className="visually-hidden">
                  {" "}
                  the connection to {nameOf(byId.get(edge.target))}
                </span>
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {props.canChange && targets.length > 0 ? (
        <form className="connect-form" onSubmit={submit}>
          <label htmlFor={`${id}-target`}>Connect to</label>
          <select id={`${id}-target`} name="target">
            {targets.map((each) => (
              <option key={each.id} value={each.id}>
                {nameOf(each)}
              </option>
            ))}
          </select>
          {branches.length > 0 ? (
            <>
              <label htmlFor={`${id}-branch`}>On branch</label>
              <select id={`${id}-branch`} name="branch">
                {branches.map((branch) => (
                  <option key={branch} value={branch}>
                    {branch}
                  </option>
                ))}
              </select>
            </>
          ) : null}
          <button type="submit">Connect</button>
          <span role="status">{said}</span>
        </form>
      ) : null}
    </section>
  );
}
