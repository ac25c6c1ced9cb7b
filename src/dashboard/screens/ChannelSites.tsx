/**
 * A widget channel's allowed sites (docs/widget.md#allowed-sites): the sites whose pages may
 * embed its chat, shown to every member. Owners and Admins change them, one origin a line,
 * checked in the browser by the API's own rule (`canonicalOrigin` and the count, shared, not
 * copied; zod stays out of the dashboard's first load) before they are sent; the API checks
 * again and answers them in their canonical form.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useRef, useState } from "react";
import {
  ALLOWED_ORIGIN_RULE,
  canonicalOrigin,
  MAX_ALLOWED_ORIGINS,
} from "../../conversations/embedding";
import { api, type Schemas, unwrap } from "../api";
import { DialogActions } from "../ui/DialogActions";
import { Field } from "../ui/Field";
import { useFormProblems } from "../ui/form-problems";
import type { FieldLabels } from "../ui/problem-text";

/** The problems of `lines` as the API would find them, each naming the line it is about. */
function problemsOf(lines: string[]): string[] {
  const problems = lines
    .filter((line) => line.length > 300 || canonicalOrigin(line) === null)
    .map((line) => `${line}: ${ALLOWED_ORIGIN_RULE}`);
  if (lines.length > MAX_ALLOWED_ORIGINS) {
    problems.push(`At most ${MAX_ALLOWED_ORIGINS} sites; there are ${lines.length}.`);
  }
  return [...new Set(problems)];
}

const FIELD = "allowedOrigins";
/** The field the browser's and the API's problems with the sites are placed on. */
const SITES_LABELS: FieldLabels = { [FIELD]: { label: "Site" } };

/** The sites of `channel` of agent `agentId`; `canChange` offers changing them. */
export function ChannelSites(props: {
  agentId: string;
  channel: Schemas["Channel"];
  canChange: boolean;
}) {
  const { agentId, channel } = props;
  const sites = channel.allowedOrigins;
  const [editing, setEditing] = useState(false);
  const form = useFormProblems(SITES_LABELS);
  const queries = useQueryClient();
  const input = useRef<HTMLTextAreaElement>(null);
  const change = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  // Focus follows the form: into it as it opens, back to its button as it closes.
  useEffect(() => {
    if (editing) input.current?.focus();
    else if (wasEditing.current) change.current?.focus();
    wasEditing.current = editing;
  }, [editing]);

  const save = useMutation({
    mutationFn: (allowedOrigins: string[]) =>
      unwrap(
        api.PATCH("/v1/manage/agents/{id}/channels/{channelId}", {
          params: { path: { id: agentId, channelId: channel.id } },
          body: { allowedOrigins },
        }),
      ),
    onSuccess: async () => {
      await queries.invalidateQueries({ queryKey: ["channels", agentId] });
      setEditing(false);
    },
    onError: form.refuseError,
  });
  const close = () => {
    form.clear();
    save.reset();
    setEditing(false);
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = String(new FormData(event.currentTarget).get("origins") ?? "");
    const lines = text
      .split(/\s+/)
      .map((line) => line.trim())
      .filter(Boolean);
    const found = problemsOf(lines);
    form.refuse(found.map((message) => ({ field: FIELD, path: FIELD, message })));
    if (found.length === 0) save.mutate(lines);
  };

  return (
    <div className="stack">
      <h4>Allowed sites</h4>
      {sites.length === 0 ? (
        <p className="muted">Any site may embed this chat.</p>
      ) : (
        <>
          <p className="muted">Only pages of these sites (and this dashboard's preview):</p>
          <ul>
            {sites.map((site) => (
              <li key={site}>
                <code>{site}</code>
              </li>
            ))}
          </ul>
        </>
      )}
      {props.canChange && !editing ? (
        <div className="actions">
          <button ref={change} type="button" className="small" onClick={() => setEditing(true)}>
            Change allowed sites<span className="visually-hidden"> of {channel.name}</span>
          </button>
        </div>
      ) : null}
      {editing ? (
        <form className="stack" onSubmit={submit} noValidate>
          {form.top}
          <Field
            label={`Allowed sites of ${channel.name}`}
            hint="One origin a line, such as https://shop.example.com; https://*.example.com allows its subdomains. At most 20. Empty: any site."
            error={form.at(FIELD)}
          >
            {(control) => (
              <textarea
                {...control}
                ref={input}
                name="origins"
                rows={3}
                defaultValue={sites.join("\n")}
                spellCheck={false}
                autoCapitalize="off"
              />
            )}
          </Field>
          <DialogActions
            confirm="Save allowed sites"
            mutation={{ isPending: save.isPending, error: form.shown(save.error) }}
            onClose={close}
          />
        </form>
      ) : null}
    </div>
  );
}
