/**
 * The workflow editor (docs/dashboard.md#workflow-editor), `/app/workflows/{id}/editor`: a palette,
 * the canvas and the selected node's panel, fitted to the window; undo, redo and the other
 * shortcuts (shortcuts.ts); Save replaces the definition and its notes
 * (PUT /v1/manage/workflows/{id}) and the problems of a refused save appear on the nodes they
 * name. Loaded on demand: React Flow stays out of the dashboard's first load.
 */
import "@xyflow/react/dist/style.css";
import "./editor.css";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ReactFlowProvider, useReactFlow } from "@xyflow/react";
import { useMemo, useRef } from "react";
import { ApiFailure, api, type Schemas, unwrap } from "../../../api";
import { ErrorNote } from "../../../ui/feedback";
import { useLeaveGuard } from "../../../ui/leave-guard";
import { Canvas, fitOptions, useShowNode, useViewCentre } from "./Canvas";
import { checkNode } from "./fields";
import { NodePanel } from "./NodePanel";
import { Palette } from "./Palette";
import { useNewestSamples, useSecretNames } from "./queries";
import { RunBar } from "./RunBar";
import { RunProvider } from "./run-context";
import { useShortcuts } from "./shortcuts";
import { suggestionsFor } from "./suggestions";
import { type EditorState, useEditor } from "./use-editor";
import { useWindowFit } from "./use-window-fit";
import { useWorkflowSettings, WorkflowSettings } from "./WorkflowSettings";

type Props = { workflow: Schemas["Workflow"]; canChange: boolean };

/** The editor of `workflow`; Owners and Admins change it, members look. */
export default function Editor(props: Props) {
  return (
    <ReactFlowProvider>
      <RunProvider workflowId={props.workflow.id}>
        <EditorBody {...props} />
      </RunProvider>
    </ReactFlowProvider>
  );
}

type Definition = ReturnType<EditorState["definition"]>;

function EditorBody({ workflow, canChange }: Props) {
  const editor = useEditor(workflow);
  const inView = useViewCentre();
  const showNode = useShowNode();
  const flow = useReactFlow();
  const tidy = () => {
    editor.arrange();
    // After React Flow has the new positions.
    requestAnimationFrame(() => void flow.fitView({ ...fitOptions(), duration: 200 }));
  };
  const queries = useQueryClient();
  const secrets = useSecretNames();
  const samples = useNewestSamples(workflow.id, Object.keys(workflow.webhookUrls));
  const settings = useWorkflowSettings(workflow);
  const dirty = editor.dirty || settings.dirty;
  const save = useMutation({
    mutationFn: ({ nodes, connections, notes }: Definition) => {
      // A PUT replaces the notes too: left out, they would be deleted.
      const body = { name: workflow.name, slug: workflow.slug, nodes, connections, notes };
      return unwrap(
        api.PUT("/v1/manage/workflows/{id}", {
          params: { path: { id: workflow.id } },
          body: { ...body, ...settings.body() } as Schemas["WorkflowInput"],
        }),
      );
    },
    onSuccess: (updated, definition) => {
      queries.setQueryData(["workflow", updated.id], updated);
      void queries.invalidateQueries({ queryKey: ["workflows"] });
      editor.showProblems([], definition.order, true);
      settings.savedNow();
    },
    onError: (error, definition) => {
      if (error instanceof ApiFailure && error.code === "invalid_request") {
        editor.showProblems(settings.refused(error.details), definition.order, false);
      }
    },
  });
  useLeaveGuard(dirty);
  const search = useRef<HTMLInputElement>(null);
  const body = useRef<HTMLDivElement>(null);
  useWindowFit(body);
  useShortcuts(
    canChange
      ? {
          undo: editor.undo,
          redo: editor.redo,
          copy: editor.copy,
          paste: editor.paste,
          duplicate: editor.duplicate,
          remove: editor.removeSelection,
          search: () => search.current?.focus(),
        }
      : {},
  );
  const selected = editor.nodes.find((node) => node.id === editor.selected);
  const selectedJson = selected?.data.node;
  const local = useMemo(() => (selectedJson ? checkNode(selectedJson) : []), [selectedJson]);
  const suggestions = useMemo(
    () =>
      selected
        ? suggestionsFor({
            id: selected.id,
            nodes: editor.nodes,
            edges: editor.edges,
            samples,
            secrets,
          })
        : [],
    [selected, editor.nodes, editor.edges, samples, secrets],
  );
  // The workflow's concurrency key reads a trigger's call, as a webhook's own templates do.
  const trigger = editor.nodes.find((node) => node.data.node.type === "webhook")?.id;
  const settingSuggestions = useMemo(
    () =>
      suggestionsFor({
        id: trigger ?? "",
        nodes: editor.nodes,
        edges: [],
        samples,
        secrets: [],
      }).filter((suggestion) => !suggestion.template.startsWith("{{$")),
    [trigger, editor.nodes, samples],
  );
  const refused = save.error instanceof ApiFailure && save.error.code === "invalid_request";
  return (
    <div className="editor">
      <div className="editor-bar actions">
        {canChange ? (
          <button
            type="button"
            className="primary"
            disabled={save.isPending}
            onClick={() => save.mutate(editor.definition())}
          >
            Save
          </button>
        ) : null}
        {canChange ? (
          <button type="button" onClick={tidy}>
            Tidy up
          </button>
        ) : null}
        {canChange ? <EditButtons editor={editor} /> : null}
        <button type="button" onClick={() => editor.deselect()}>
          Workflow settings
        </button>
        <span role="status">{saveState(save, dirty)}</span>
      </div>
      <RunBar workflow={workflow} canChange={canChange} dirty={dirty} />
      {save.isError && !refused ? <ErrorNote error={save.error} /> : null}
      {editor.general.length > 0 ? (
        <ul className="general-problems" aria-label="Problems of the workflow">
          {editor.general.map((problem) => (
            <li key={problem} className="error">
              {problem}
            </li>
          ))}
        </ul>
      ) : null}
      {canChange ? (
        <Palette
          onAdd={(type) => showNode(editor.addNode(type, inView()))}
          onAddNote={() => editor.addNote(inView())}
          searchRef={search}
        />
      ) : null}
      <div className="editor-body" ref={body}>
        <Canvas editor={editor} canChange={canChange} />
        {selected ? (
          <NodePanel
            key={selected.id}
            node={selected}
            local={local}
            workflow={workflow}
            editor={editor}
            canChange={canChange}
            suggestions={suggestions}
          />
        ) : (
          <WorkflowSettings
            settings={settings.settings}
            saved={settings.saved}
            canChange={canChange}
            suggestions={settingSuggestions}
            onChange={settings.change}
          />
        )}
      </div>
    </div>
  );
}

/** Undo, redo and duplicate, beside their shortcuts (shortcuts.ts). */
function EditButtons({ editor }: { editor: EditorState }) {
  return (
    <>
      <button type="button" disabled={!editor.canUndo} onClick={editor.undo} title="Ctrl+Z">
        Undo
      </button>
      <button type="button" disabled={!editor.canRedo} onClick={editor.redo} title="Ctrl+Shift+Z">
        Redo
      </button>
      <button type="button" onClick={editor.duplicate} title="Ctrl+D">
        Duplicate
      </button>
    </>
  );
}

function saveState(
  save: { isPending: boolean; isError: boolean; isSuccess: boolean; error: unknown },
  dirty: boolean,
): string {
  if (save.isPending) return "Saving…";
  if (save.error instanceof ApiFailure && save.error.code === "invalid_request") {
    const count = save.error.details.length;
    return `Not saved: ${count} ${count === 1 ? "problem" : "problems"}, shown where they stand.`;
  }
  if (dirty) return "Unsaved changes.";
  return save.isSuccess ? "Saved." : "";
}
