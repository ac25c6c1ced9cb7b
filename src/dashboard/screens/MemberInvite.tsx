/**
 * The Members screen's sign-in dialogs (docs/dashboard.md#screens): invite someone with a role,
 * and make a new sign-in link for a member whose link expired. Either way the result is a
 * one-time link to hand over, shown once with a copy button.
 *
 * The member token that `POST /v1/manage/members` also answers is dropped as soon as the answer
 * arrives and never shown: it is a credential that never expires and acts with the new member's
 * role, so whoever holds it is that member until they are removed. The person invited signs in
 * with the link (once, within 15 minutes); the inviter should not hold their credential.
 */
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId } from "react";
import { api, type Schemas, unwrap } from "../api";
import { CopyField } from "../ui/CopyField";
import { Dialog } from "../ui/Dialog";
import { useDialogMutation } from "../ui/dialog-mutation";
import { ErrorNote, When } from "../ui/feedback";

type Member = Schemas["Member"];

/** What each role may do (docs/api/manage.md#members), beside every role choice. */
export const ROLES_HINT =
  "Admins change agents, workflows, keys, secrets and members (all but the owner); members only read.";
type HandOverLink = { member: Member; url: string; expiresAt?: string };

/** The one-time link for `member`, with how long it works and what to do when it expires. */
function HandOver(props: { link: HandOverLink; onDone: () => void }) {
  const { member, url, expiresAt } = props.link;
  return (
    <div className="stack">
      <p className="warning" role="alert">
        This is the only time the link is shown. It signs {member.name} in once, within 15 minutes
        {expiresAt ? (
          <>
            {" "}
            (until <When iso={expiresAt} />)
          </>
        ) : null}
        . Send it to {member.email} yourself; if it expires, make a new one from their row.
      </p>
      <CopyField label={`Sign-in link for ${member.name}`} what="link" value={url} />
      <div className="actions">
        <button type="button" onClick={props.onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

/** "Invite a member" (`open`): email, name and role; then the sign-in link to hand over. */
export function InviteMember(props: { open: boolean; onClose: () => void }) {
  const queries = useQueryClient();
  const ids = { email: useId(), name: useId(), role: useId(), roles: useId() };
  const {
    mutation: invite,
    answer: link,
    close,
  } = useDialogMutation(
    {
      mutationFn: async (body: Schemas["CreateMember"]) => {
        const { member, signInUrl } = await unwrap(api.POST("/v1/manage/members", { body }));
        // Not the memberToken: see this module's docstring.
        return { member, url: signInUrl };
      },
      onSuccess: () => {
        void queries.invalidateQueries({ queryKey: ["members"] });
      },
    },
    props.onClose,
  );
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    invite.mutate({
      email: String(form.get("email") ?? "").trim(),
      name: String(form.get("name") ?? "").trim(),
      role: form.get("role") === "admin" ? "admin" : "member",
    });
  };
  return (
    <Dialog
      open={props.open}
      title={link ? "Hand over the sign-in link" : "Invite a member"}
      onClose={close}
    >
      {link ? (
        <HandOver link={link} onDone={close} />
      ) : (
        <form className="stack" onSubmit={submit}>
          <label htmlFor={ids.email}>Email</label>
          <input id={ids.email} name="email" type="email" required maxLength={254} />
          <label htmlFor={ids.name}>Name</label>
          <input id={ids.name} name="name" required maxLength={200} autoComplete="off" />
          <label htmlFor={ids.role}>Role</label>
          <select id={ids.role} name="role" defaultValue="member" aria-describedby={ids.roles}>
            <option value="member">Member</option>
            <option value="admin">Admin</option>
          </select>
          <p id={ids.roles} className="muted hint">
            {ROLES_HINT}
          </p>
          {invite.isError ? <ErrorNote error={invite.error} /> : null}
          <div className="actions">
            <button type="submit" className="primary" disabled={invite.isPending}>
              Invite
            </button>
            <button type="button" onClick={close}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

/**
 * A new sign-in link for `member` (closed when null), e.g. when the invitation's expired:
 * `POST /v1/manage/sign-in-links {memberId}`. Earlier links stay as they were.
 */
export function NewSignInLink(props: { member: Member | null; onClose: () => void }) {
  const {
    mutation: create,
    answer: link,
    close,
  } = useDialogMutation(
    {
      mutationFn: async (member: Member): Promise<HandOverLink> => ({
        member,
        ...(await unwrap(api.POST("/v1/manage/sign-in-links", { body: { memberId: member.id } }))),
      }),
    },
    props.onClose,
  );
  const member = props.member;
  return (
    <Dialog
      open={member !== null}
      title={link ? "Hand over the sign-in link" : "Make a new sign-in link?"}
      onClose={close}
    >
      {link ? <HandOver link={link} onDone={close} /> : null}
      {member && !link ? (
        <div className="stack">
          <p>
            A new link signs <strong>{member.name}</strong> in to this workspace as them, once,
            within 15 minutes. Hand it to {member.email} only.
          </p>
          {create.isError ? <ErrorNote error={create.error} /> : null}
          <div className="actions">
            <button
              type="button"
              className="primary"
              disabled={create.isPending}
              onClick={() => create.mutate(member)}
            >
              Make link
            </button>
            <button type="button" onClick={close}>
              Cancel
            </button>
          </div>
        </div>
      ) : null}
    </Dialog>
  );
}
