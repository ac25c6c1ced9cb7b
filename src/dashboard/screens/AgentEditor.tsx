/**
 * Creating and editing an agent (docs/dashboard.md#screens): name, mode, greeting with a preview
 * of `{{participant.name}}`, instructions, the Initial Parameters and the Analysis. Checked in the browser with
 * the API's own zod schema (`CreateAgentSchema`, shared, not copied) before it is sent; the API
 * checks again.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { CreateAgentSchema } from "../../agents/schemas";
import { api, type Schemas, unwrap } from "../api";
import { FormDialog } from "../ui/Dialog";
import { Field } from "../ui/Field";
import { Problems } from "../ui/feedback";
import { useFormProblems } from "../ui/form-problems";
import type { FieldLabels } from "../ui/problem-text";
import { AnalysisEditor } from "./AnalysisEditor";
import { analysisStateOf, toAnalysis } from "./analysis-setting";
import { type ParameterRow, ParametersEditor, toParameters } from "./ParametersEditor";

type Agent = Schemas["Agent"];

const PREVIEW_NAME = "Ada";

/** The fields problems are placed on; a parameter's by its path without the index. */
const LABELS: FieldLabels = {
  name: { label: "Name" },
  mode: { label: "Mode", kind: "choice" },
  greeting: { label: "Greeting" },
  instructions: { label: "Instructions" },
  "parameters.name": { label: "Name" },
  "parameters.type": { label: "Type", kind: "choice" },
  "parameters.required": { label: "Required", kind: "boolean" },
  "parameters.options": { label: "Options" },
  "analysis.fields.name": { label: "Name" },
  "analysis.fields.type": { label: "Type", kind: "choice" },
  "analysis.fields.description": { label: "Description" },
  "analysis.fields.options": { label: "Options" },
};

/** The greeting as a person named Ada would read it; other templates stay visible as typed. */
function preview(greeting: string): string {
  return greeting.replaceAll(/\{\{\s*participant\.name\s*\}\}/g, PREVIEW_NAME);
}

function rowsOf(agent: Agent | null): ParameterRow[] {
  return (agent?.parameters ?? []).map((parameter) => ({
    name: parameter.name,
    type: parameter.type,
    required: parameter.required,
    options: (parameter.options ?? []).join(", "),
  }));
}

/** The create or edit dialog; `agent` null creates. */
export function AgentEditor(props: { open: boolean; agent: Agent | null; onClose: () => void }) {
  const { agent } = props;
  const queries = useQueryClient();
  const [greeting, setGreeting] = useState(agent?.greeting ?? "");
  const [rows, setRows] = useState<ParameterRow[]>(rowsOf(agent));
  const [analysis, setAnalysis] = useState(analysisStateOf(agent?.analysis));
  const form = useFormProblems(LABELS);
  const save = useMutation({
    mutationFn: (body: Schemas["CreateAgent"]) =>
      agent
        ? unwrap(api.PATCH("/v1/manage/agents/{id}", { params: { path: { id: agent.id } }, body }))
        : unwrap(api.POST("/v1/manage/agents", { body })),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ["agents"] });
      props.onClose();
    },
    onError: form.refuseError,
  });
  const submit = (data: FormData) => {
    const body = {
      name: String(data.get("name") ?? ""),
      mode: String(data.get("mode") ?? "initiator"),
      greeting: greeting.trim() ? greeting : null,
      instructions: String(data.get("instructions") ?? "").trim() || null,
      parameters: toParameters(rows),
      analysis: toAnalysis(analysis),
    };
    const checked = CreateAgentSchema.safeParse(body);
    if (!checked.success) {
      form.refuseIssues(checked.error.issues);
      return;
    }
    form.clear();
    save.mutate(checked.data as Schemas["CreateAgent"]);
  };
  return (
    <FormDialog
      open={props.open}
      title={agent ? `Edit ${agent.name}` : "New agent"}
      onClose={props.onClose}
      confirm={agent ? "Save agent" : "Create agent"}
      mutation={{ isPending: save.isPending, error: form.shown(save.error) }}
      onSubmit={submit}
      noValidate
    >
      {form.top}
      <Field label="Name" error={form.at("name")}>
        {(control) => <input {...control} name="name" defaultValue={agent?.name ?? ""} required />}
      </Field>
      <fieldset>
        <legend>Mode</legend>
        <Problems problems={form.at("mode")} />
        <label className="check">
          <input
            type="radio"
            name="mode"
            value="initiator"
            defaultChecked={(agent?.mode ?? "initiator") === "initiator"}
          />
          Initiator: the agent speaks first
        </label>
        <label className="check">
          <input
            type="radio"
            name="mode"
            value="responder"
            defaultChecked={agent?.mode === "responder"}
          />
          Responder: the person speaks first
        </label>
      </fieldset>
      <Field
        label="Greeting"
        error={form.at("greeting")}
        hint={`Preview for ${PREVIEW_NAME}: ${greeting.trim() ? preview(greeting) : "(no greeting)"}`}
      >
        {(control) => (
          <textarea
            {...control}
            rows={2}
            value={greeting}
            onChange={(event) => setGreeting(event.target.value)}
          />
        )}
      </Field>
      <Field label="Instructions" error={form.at("instructions")}>
        {(control) => (
          <textarea
            {...control}
            name="instructions"
            rows={3}
            defaultValue={agent?.instructions ?? ""}
          />
        )}
      </Field>
      <ParametersEditor rows={rows} onChange={setRows} problemsAt={form.at} />
      <AnalysisEditor state={analysis} onChange={setAnalysis} problemsAt={form.at} />
    </FormDialog>
  );
}
