/**
 * Settings > Members (issue 14 screen 7, docs/dashboard.md#screens): the people of the workspace
 * with email, role and since when, the signed-in one marked. Owners and Admins invite someone
 * with a role (a one-time sign-in link to hand over), make a new link, change a role and remove a
 * member after confirming; nobody changes or removes the owner, and your own row offers only
 * stepping down (removing yourself would end this session mid-way). Members see the list only.
 */
import { useState } from "react";
import type { Schemas } from "../api";
import { useMe, useMembers } from "../queries";
import { DataTable, RowAction } from "../ui/DataTable";
import { Screen } from "../ui/Screen";
import { ChangeRole, RemoveMember, ROLE_LABELS } from "./MemberDialogs";
import { InviteMember, NewSignInLink } from "./MemberInvite";

type Member = Schemas["Member"];

/** The members screen; `canChange` shows the controls of Owners and Admins. */
export function Members({ canChange }: { canChange: boolean }) {
  const members = useMembers();
  // The same query as the shell's, so it is answered from the cache.
  const me = useMe();
  const myId = me.data?.member.id;
  const [inviting, setInviting] = useState(false);
  const [linking, setLinking] = useState<Member | null>(null);
  const [changing, setChanging] = useState<Member | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [done, setDone] = useState("");

  return (
    <Screen
      title="Members"
      breadcrumb="Settings"
      intro="Owners and Admins change things; members read. Everyone signs in with a one-time link."
      action={canChange && { label: "Invite a member", onClick: () => setInviting(true) }}
    >
      <p role="status" className="muted">
        {done}
      </p>
      <DataTable
        list={{ query: members, what: "members" }}
        rowProps={(member) => (member.id === myId ? { className: "self" } : {})}
        columns={[
          {
            label: "Name",
            cell: (member) => (
              <>
                {member.name}
                {member.id === myId ? <span className="tag"> (you)</span> : null}
              </>
            ),
          },
          { label: "Email", cell: (member) => member.email },
          { label: "Role", cell: (member) => ROLE_LABELS[member.role] },
          { label: "Member since", when: (member) => member.createdAt },
        ]}
        actionsClass="row-actions"
        actions={
          canChange &&
          ((member) =>
            member.role === "owner" ? (
              <span className="muted">The owner cannot be changed</span>
            ) : (
              <>
                <RowAction target={`of ${member.name}`} onClick={() => setChanging(member)}>
                  Change role
                </RowAction>
                {member.id === myId ? null : (
                  <>
                    <RowAction target={`for ${member.name}`} onClick={() => setLinking(member)}>
                      Sign-in link
                    </RowAction>
                    <RowAction target={member.name} danger onClick={() => setRemoving(member)}>
                      Remove
                    </RowAction>
                  </>
                )}
              </>
            ))
        }
      />
      <InviteMember open={inviting} onClose={() => setInviting(false)} />
      <NewSignInLink member={linking} onClose={() => setLinking(null)} />
      <ChangeRole
        member={changing}
        self={changing?.id === myId}
        onClose={() => setChanging(null)}
        onChanged={(member) =>
          setDone(`${member.name} is now ${member.role === "admin" ? "an Admin" : "a Member"}.`)
        }
      />
      <RemoveMember
        member={removing}
        onClose={() => setRemoving(null)}
        onRemoved={(member) => setDone(`${member.name} was removed.`)}
      />
    </Screen>
  );
}
