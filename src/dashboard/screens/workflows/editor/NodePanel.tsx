/**
 * The side panel of the selected node (docs/dashboard.md#workflow-editor): a webhook's method,
 * production and test URLs first (WebhookUrls), its label and key, its settings (SettingFields),
 * a webhook's test calls once the workflow is saved, its connections (the keyboard's way to
 * connect nodes), and removing it.
 */
import { useEffect, useId, useRef } from "react";
import { DEFAULT_NAMES } from "../../../../workflows/nodes";
import type { Schemas } from "../../../api";
import { firstInvalid, focusInView } from "../../../ui/form-problems";
import { Capture } from "./Capture";
import { Connections } from "./Connections";
import { fieldsOf, mergeProblems, problemsAt } from "./fields";
import type { CanvasNode, FieldProblem } from "./model";
import { SettingFields } from "./SettingFields";
import type { Suggestion } from "./suggestions";
import type { EditorState } from "./use-editor";
import { WebhookUrls } from "./WebhookUrls";

type Props = {
  node: CanvasNode;
  /** The schema's problems with the node now, beside the API's from the last save. */
  local: FieldProblem[];
  workflow: Schemas["Workflow"];
  editor: EditorState;
  canChange: boolean;
  suggestions: Suggestion[];
};

/** The panel for `node`; read-only unless `canChange`. */
export function NodePanel({ node, local, workflow, editor, canChange, suggestions }: Props) {
  const id = useId();
  const json = node.data.node;
  const problems = mergeProblems(node.data.problems, local);
  const whole = problems.filter(({ field }) => field === "");
  const change = (next: typeof json) => editor.updateNode(node.id, next);
  const url = workflow.webhookUrls[json.key];
  const label = json.name ?? DEFAULT_NAMES[json.type];
  const nameProblems = problemsAt(problems, "name");
  const keyProblems = problemsAt(problems, "key");
  const section = useRef<HTMLElement>(null);
  const answered = useRef(editor.general);
  // `general` is set anew by every save's answer: after a refused one, focus goes to the first
  // invalid setting of this node, if it has one (not on opening the panel).
  useEffect(() => {
    if (answered.current === editor.general) return;
    answered.current = editor.general;
    focusInView(firstInvalid(section.current));
  }, [editor.general]);
  return (
    <section ref={section} className="node-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>
        {label}
        {label === DEFAULT_NAMES[json.type] ? null : (
          <span className="muted"> ({DEFAULT_NAMES[json.type]})</span>
        )}
      </h2>
      {json.type === "webhook" ? (
        <WebhookUrls
          node={json}
          url={url}
          testUrl={workflow.webhookTestUrls[json.key]}
          stopped={workflow.status === "stopped"}
        />
      ) : null}
      {whole.map((problem) => (
        <p key={problem.message} className="error">
          {problem.message}
        </p>
      ))}
      <fieldset disabled={!canChange} className="panel-fields">
        <legend className="visually-hidden">Settings</legend>
        <div className="setting">
          <label htmlFor={`${id}-name`}>Label shown on the canvas</label>
          <input
            id={`${id}-name`}
            value={json.name ?? ""}
            placeholder={DEFAULT_NAMES[json.type]}
            aria-invalid={nameProblems.length > 0 || undefined}
            aria-describedby={`${id}-name-problems`}
            onChange={(event) => change({ ...json, name: event.target.value || undefined })}
          />
          <Problems id={`${id}-name-problems`} problems={nameProblems} />
        </div>
        <div className="setting">
          <label htmlFor={`${id}-key`}>Key</label>
          <input
            id={`${id}-key`}
            value={json.key}
            spellCheck={false}
            aria-invalid={keyProblems.length > 0 || undefined}
            aria-describedby={`${id}-key-about ${id}-key-problems`}
            onChange={(event) => change({ ...json, key: event.target.value })}
          />
          <small id={`${id}-key-about`} className="muted">
            Names the node in templates and in its URL; templates that read it must follow a change.
          </small>
          <Problems id={`${id}-key-problems`} problems={keyProblems} />
        </div>
        <SettingFields
          node={json}
          fields={fieldsOf(json.type)}
          problems={problems}
          disabled={!canChange}
          suggestions={suggestions}
          // setAt keeps the node's key and type: what comes back is still the node.
          onChange={(next) => change(next as typeof json)}
        />
      </fieldset>
      {json.type === "webhook" && url && canChange ? (
        <Capture workflowId={workflow.id} nodeKey={json.key} />
      ) : null}
      <Connections node={node} editor={editor} canChange={canChange} />
      {canChange ? (
        <button type="button" className="danger" onClick={() => editor.removeNode(node.id)}>
          Remove {label}
        </button>
      ) : null}
    </section>
  );
}

function Problems({ id, problems }: { id: string; problems: FieldProblem[] }) {
  return (
    <ul id={id} className="field-problems">
      {problems.map((problem) => (
        <li key={problem.message} className="error">
          {problem.message}
        </li>
      ))}
    </ul>
  );
}
