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
import { api, type Schemas, unwrap } from "../api";
import { ShownOnce } from "../ui/CopyField";
import { Dialog, FormDialog } from "../ui/Dialog";
import { DialogActions } from "../ui/DialogActions";
import { useDialogMutation } from "../ui/dialog-mutation";
import { Field, type FieldControl } from "../ui/Field";
import { When } from "../ui/feedback";
import { useFormProblems } from "../ui/form-problems";
import type { FieldLabels } from "../ui/problem-text";

type Member = Schemas["Member"];

/** What each role may do (docs/api/manage.md#members), beside every role choice. */
export const ROLES_HINT =
  "Admins change agents, workflows, keys, secrets and members (all but the owner); members only read.";
type HandOverLink = { member: Member; url: string; expiresAt?: string };

/** The one-time link for `member`, with how long it works and what to do when it expires. */
function HandOver(props: { link: HandOverLink; onDone: () => void }) {
  const { member, url, expiresAt } = props.link;
  return (
    <ShownOnce
      warning={
        <>
          This is the only time the link is shown. It signs {member.name} in once, within 15 minutes
          {expiresAt ? (
            <>
              {" "}
              (until <When iso={expiresAt} />)
            </>
          ) : null}
          . Send it to {member.email} yourself; if it expires, make a new one from their row.
        </>
      }
      label={`Sign-in link for ${member.name}`}
      what="link"
      region="Your new sign-in link, shown once"
      value={url}
      onDone={props.onDone}
    />
  );
}

/** The role choice, Member or Admin, with the attributes of its `Field` and its default. */
export function RoleSelect(props: FieldControl & { defaultValue: "member" | "admin" }) {
  return (
    <select name="role" {...props}>
      <option value="member">Member</option>
      <option value="admin">Admin</option>
    </select>
  );
}

/** The fields of an invitation an API refusal is placed on. */
const INVITE_LABELS: FieldLabels = {
  email: { label: "Email address" },
  name: { label: "Name" },
  role: { label: "Role", kind: "choice" },
};

/** "Invite a member" (`open`): email, name and role; then the sign-in link to hand over. */
export function InviteMember(props: { open: boolean; onClose: () => void }) {
  const form = useFormProblems(INVITE_LABELS);
  const dialog = useDialogMutation(
    {
      mutationFn: async (body: Schemas["CreateMember"]) => {
        const { member, signInUrl } = await unwrap(api.POST("/v1/manage/members", { body }));
        // Not the memberToken: see this module's docstring.
        return { member, url: signInUrl };
      },
      invalidates: ["members"],
      form,
    },
    props.onClose,
  );
  const link = dialog.answer;
  const submit = (data: FormData) => {
    dialog.mutation.mutate({
      email: String(data.get("email") ?? "").trim(),
      name: String(data.get("name") ?? "").trim(),
      role: data.get("role") === "admin" ? "admin" : "member",
    });
  };
  return (
    <FormDialog
      open={props.open}
      title={link ? "Hand over the sign-in link" : "Invite a member"}
      onClose={dialog.close}
      confirm="Invite"
      mutation={dialog.state}
      onSubmit={submit}
      done={link ? <HandOver link={link} onDone={dialog.close} /> : null}
    >
      {form.top}
      <Field label="Email" error={form.at("email")}>
        {(control) => <input {...control} name="email" type="email" required maxLength={254} />}
      </Field>
      <Field label="Name" error={form.at("name")}>
        {(control) => (
          <input {...control} name="name" required maxLength={200} autoComplete="off" />
        )}
      </Field>
      <Field label="Role" hint={ROLES_HINT} error={form.at("role")}>
        {(control) => <RoleSelect {...control} defaultValue="member" />}
      </Field>
    </FormDialog>
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
          <DialogActions
            confirm="Make link"
            onConfirm={() => create.mutate(member)}
            mutation={create}
            onClose={close}
          />
        </div>
      ) : null}
    </Dialog>
  );
}
