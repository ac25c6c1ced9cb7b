/**
 * The Members screen's change dialogs (docs/dashboard.md#screens): change a role (a select, then
 * Save as the confirmation) and remove a member after confirming. Stepping down from Admin
 * yourself is allowed and says what it means; the shell then hides the controls at once.
 */
import { useQueryClient } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "../api";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { FormDialog } from "../ui/Dialog";
import { useDialogMutation } from "../ui/dialog-mutation";
import { Field } from "../ui/Field";
import { useFormProblems } from "../ui/form-problems";
import { ROLES_HINT, RoleSelect } from "./MemberInvite";

type Member = Schemas["Member"];
type Role = Schemas["ChangeMemberRole"]["role"];

/** A role as people read it. */
export const ROLE_LABELS = { owner: "Owner", admin: "Admin", member: "Member" } as const;

/**
 * Changes `member`'s role (closed when null): `PATCH /v1/manage/members/{id}`. `self` when it is
 * the signed-in member. `onChanged` gets the member with the new role.
 */
export function ChangeRole(props: {
  member: Member | null;
  self: boolean;
  onClose: () => void;
  onChanged: (member: Member) => void;
}) {
  const queries = useQueryClient();
  const form = useFormProblems({ role: { label: "Role", kind: "choice" } });
  const dialog = useDialogMutation(
    {
      mutationFn: (input: { id: string; role: Role }) =>
        unwrap(
          api.PATCH("/v1/manage/members/{id}", {
            params: { path: { id: input.id } },
            body: { role: input.role },
          }),
        ),
      invalidates: ["members"],
      onSuccess: (member) => {
        // Our own role decides which controls the shell shows.
        if (props.self) void queries.invalidateQueries({ queryKey: ["me"] });
        props.onChanged(member);
      },
      closes: true,
      form,
    },
    props.onClose,
  );
  const member = props.member;
  const submit = (data: FormData) => {
    const role: Role = data.get("role") === "admin" ? "admin" : "member";
    if (member) dialog.mutation.mutate({ id: member.id, role });
  };
  return (
    <FormDialog
      open={member !== null}
      title={props.self ? "Change your role" : `Change the role of ${member?.name ?? ""}`}
      onClose={dialog.close}
      confirm="Save role"
      mutation={dialog.state}
      onSubmit={submit}
    >
      {form.top}
      <Field
        label="Role"
        error={form.at("role")}
        hint={`${ROLES_HINT} The new role applies from ${props.self ? "your" : "their"} next request.`}
      >
        {(control) => (
          <RoleSelect {...control} defaultValue={member?.role === "admin" ? "admin" : "member"} />
        )}
      </Field>
      {props.self ? (
        <p className="warning">
          As a Member you can no longer change anything, your role included: only the owner or an
          Admin can make you an Admin again.
        </p>
      ) : null}
    </FormDialog>
  );
}

/** Confirms removing `member` (closed when null): `DELETE /v1/manage/members/{id}`. */
export function RemoveMember(props: {
  member: Member | null;
  onClose: () => void;
  onRemoved: (member: Member) => void;
}) {
  const { mutation: remove, close } = useDialogMutation(
    {
      mutationFn: (member: Member) =>
        unwrap(api.DELETE("/v1/manage/members/{id}", { params: { path: { id: member.id } } })),
      invalidates: ["members"],
      onSuccess: (_, member) => props.onRemoved(member),
      closes: true,
    },
    props.onClose,
  );
  const member = props.member;
  return (
    <ConfirmDialog
      subject={member}
      title="Remove this member?"
      confirmLabel={`Remove ${member?.name ?? ""}`}
      mutation={remove}
      onClose={close}
    >
      <p>
        <strong>{member?.name}</strong> ({member?.email}) loses access at once: their member token
        and every dashboard session stop working. Widget keys they created keep working. You can
        invite them again later.
      </p>
    </ConfirmDialog>
  );
}
