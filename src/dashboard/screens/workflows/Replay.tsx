/**
 * Replay an execution (docs/webhooks.md#replay), for Owners and Admins: a new execution with the
 * same trigger input, on the definition the execution ran on or the workflow as saved now. Once
 * the API has recorded it, the browser goes to the new execution.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, type Schemas, unwrap } from "../../api";
import { navigate } from "../../router";
import { FormDialog } from "../../ui/Dialog";
import { useDialogMutation } from "../../ui/dialog-mutation";
import { workflowPaths } from "./status";

type Definition = Schemas["ReplayInput"]["definition"];

/** The Replay button and its dialog, for `execution` (shown to Owners and Admins only). */
export function Replay({ execution }: { execution: Schemas["Execution"] }) {
  const [open, setOpen] = useState(false);
  const queries = useQueryClient();
  const { mutation: replay, close } = useDialogMutation(
    {
      mutationFn: (definition: Definition) =>
        unwrap(
          api.POST("/v1/manage/workflows/{id}/executions/{executionId}/replay", {
            params: { path: { id: execution.workflowId, executionId: execution.id } },
            body: { definition },
          }),
        ),
      onSuccess: (created) => {
        queries.setQueryData(["execution", created.workflowId, created.id], created);
        void queries.invalidateQueries({ queryKey: ["executions", created.workflowId] });
        close();
        navigate(workflowPaths(created.workflowId).execution(created.id));
      },
    },
    () => setOpen(false),
  );
  const submit = (form: FormData) =>
    replay.mutate(form.get("definition") === "current" ? "current" : "original");
  return (
    <>
      <button type="button" className="primary" onClick={() => setOpen(true)}>
        Replay
      </button>
      <FormDialog
        open={open}
        title="Replay this execution?"
        onClose={close}
        confirm="Replay execution"
        mutation={replay}
        onSubmit={submit}
      >
        <p>
          A new execution starts with the same trigger input. No caller waits for it, so its answer
          goes nowhere.
        </p>
        <fieldset>
          <legend>Run it on</legend>
          <label className="check">
            <input type="radio" name="definition" value="original" defaultChecked /> The definition
            this execution ran on
          </label>
          <label className="check">
            <input type="radio" name="definition" value="current" /> The workflow as saved now
          </label>
        </fieldset>
      </FormDialog>
    </>
  );
}
