/**
 * "New workflow" (docs/dashboard.md#workflow-editor), for Owners and Admins: a name and a slug
 * (suggested from the name), created with one webhook trigger, then opened in the editor.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { slugify } from "../../../platform/slug";
import { api, type Schemas, unwrap } from "../../api";
import { navigate } from "../../router";
import { FormDialog } from "../../ui/Dialog";
import { TextField } from "../../ui/Field";
import { useFormProblems } from "../../ui/form-problems";
import { workflowPaths } from "./status";

/** What the slug field suggests until it is typed in. */
const slugOf = (name: string) => slugify(name, 63);

/** The fields an API refusal is placed on; the rest of the body is the dialog's own. */
const LABELS = { name: { label: "Name" }, slug: { label: "Slug" } };

/** The button and its dialog. */
export function NewWorkflow() {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [slug, setSlug] = useState<string | null>(null);
  const queries = useQueryClient();
  const form = useFormProblems(LABELS);
  const create = useMutation({
    mutationFn: (body: { name: string; slug: string }) =>
      unwrap(
        api.POST("/v1/manage/workflows", {
          body: {
            ...body,
            nodes: [{ key: "webhook_1", type: "webhook", position: { x: 0, y: 0 } }],
            connections: [],
          } as Schemas["WorkflowInput"],
        }),
      ),
    onSuccess: (created) => {
      queries.setQueryData(["workflow", created.id], created);
      void queries.invalidateQueries({ queryKey: ["workflows"] });
      navigate(workflowPaths(created.id).editor);
    },
    onError: form.refuseError,
  });
  return (
    <>
      <button type="button" className="primary" onClick={() => setOpen(true)}>
        New workflow
      </button>
      <FormDialog
        open={open}
        title="New workflow"
        onClose={() => {
          form.clear();
          create.reset();
          setOpen(false);
        }}
        confirm="Create and open the editor"
        mutation={{ isPending: create.isPending, error: form.shown(create.error) }}
        onSubmit={() => create.mutate({ name: name.trim(), slug: slug ?? slugOf(name) })}
      >
        {form.top}
        <TextField
          label="Name"
          name="name"
          required
          maxLength={200}
          value={name}
          onChange={setName}
          error={form.at("name")}
        />
        <TextField
          label="Slug"
          hint="In the webhook URLs: lower-case letters, digits and inner hyphens."
          name="slug"
          required
          maxLength={63}
          value={slug ?? slugOf(name)}
          onChange={setSlug}
          error={form.at("slug")}
        />
      </FormDialog>
    </>
  );
}
