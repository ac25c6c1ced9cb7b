/**
 * The Members screen's change dialogs (docs/dashboard.md#screens): change a role (a select, then
 * Save as the confirmation) and remove a member after confirming. Stepping down from Admin
 * yourself is allowed and says what it means; the shell then hides the controls at once.
 */
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId } from "react";
import { api, type Schemas, unwrap } from "../api";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { Dialog } from "../ui/Dialog";
import { useDialogMutation } from "../ui/dialog-mutation";
import { ErrorNote } from "../ui/feedback";
import { ROLES_HINT } from "./MemberInvite";

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
  const ids = { role: useId(), roles: useId() };
  const { mutation: change, close } = useDialogMutation(
    {
      mutationFn: (input: { id: string; role: Role }) =>
        unwrap(
          api.PATCH("/v1/manage/members/{id}", {
            params: { path: { id: input.id } },
            body: { role: input.role },
          }),
        ),
      onSuccess: (member) => {
        void queries.invalidateQueries({ queryKey: ["members"] });
        // Our own role decides which controls the shell shows.
        if (props.self) void queries.invalidateQueries({ queryKey: ["me"] });
        props.onChanged(member);
        close();
      },
    },
    props.onClose,
  );
  const member = props.member;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!member) return;
    const role: Role =
      new FormData(event.currentTarget).get("role") === "admin" ? "admin" : "member";
    change.mutate({ id: member.id, role });
  };
  return (
    <Dialog
      open={member !== null}
      title={props.self ? "Change your role" : `Change the role of ${member?.name ?? ""}`}
      onClose={close}
    >
      {member ? (
        <form className="stack" onSubmit={submit}>
          <label htmlFor={ids.role}>Role</label>
          <select
            id={ids.role}
            name="role"
            defaultValue={member.role === "admin" ? "admin" : "member"}
            aria-describedby={ids.roles}
          >
            <option value="member">Member</option>
            <option value="admin">Admin</option>
          </select>
          <p id={ids.roles} className="muted hint">
            {ROLES_HINT} The new role applies from {props.self ? "your" : "their"} next request.
          </p>
          {props.self ? (
            <p className="warning">
              As a Member you can no longer change anything, your role included: only the owner or
              an Admin can make you an Admin again.
            </p>
          ) : null}
          {change.isError ? <ErrorNote error={change.error} /> : null}
          <div className="actions">
            <button type="submit" className="primary" disabled={change.isPending}>
              Save role
            </button>
            <button type="button" onClick={close}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
    </Dialog>
  );
}

/** Confirms removing `member` (closed when null): `DELETE /v1/manage/members/{id}`. */
export function RemoveMember(props: {
  member: Member | null;
  onClose: () => void;
  onRemoved: (member: Member) => void;
}) {
  const queries = useQueryClient();
  const { mutation: remove, close } = useDialogMutation(
    {
      mutationFn: (member: Member) =>
        unwrap(api.DELETE("/v1/manage/members/{id}", { params: { path: { id: member.id } } })),
      onSuccess: (_, member) => {
        void queries.invalidateQueries({ queryKey: ["members"] });
        props.onRemoved(member);
        close();
      },
    },
    props.onClose,
  );
  const member = props.member;
  return (
    <ConfirmDialog
      open={member !== null}
      title="Remove this member?"
      confirmLabel={`Remove ${member?.name ?? ""}`}
      pending={remove.isPending}
      error={remove.isError ? remove.error : null}
      onConfirm={() => member && remove.mutate(member)}
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
