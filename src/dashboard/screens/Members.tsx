/**
 * Settings > Members (issue 14 screen 7, docs/dashboard.md#screens): the people of the workspace
 * with email, role and since when, the signed-in one marked. Owners and Admins invite someone
 * with a role (a one-time sign-in link to hand over), make a new link, change a role and remove a
 * member after confirming; nobody changes or removes the owner, and your own row offers only
 * stepping down (removing yourself would end this session mid-way). Members see the list only.
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, type Schemas, unwrap } from "../api";
import { ErrorNote, Loading, When } from "../ui/feedback";
import { TableScroll } from "../ui/TableScroll";
import { ChangeRole, RemoveMember, ROLE_LABELS } from "./MemberDialogs";
import { InviteMember, NewSignInLink } from "./MemberInvite";

type Member = Schemas["Member"];

/** The members screen; `canChange` shows the controls of Owners and Admins. */
export function Members({ canChange }: { canChange: boolean }) {
  const members = useQuery({
    queryKey: ["members"],
    queryFn: () => unwrap(api.GET("/v1/manage/members")),
  });
  // The same query as the shell's, so it is answered from the cache.
  const me = useQuery({ queryKey: ["me"], queryFn: () => unwrap(api.GET("/v1/manage/me")) });
  const myId = me.data?.member.id;
  const [inviting, setInviting] = useState(false);
  const [linking, setLinking] = useState<Member | null>(null);
  const [changing, setChanging] = useState<Member | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [done, setDone] = useState("");

  return (
    <section aria-labelledby="members-title">
      <p className="breadcrumb">Settings</p>
      <h1 id="members-title" tabIndex={-1}>
        Members
      </h1>
      <p className="muted">
        Owners and Admins change things; members read. Everyone signs in with a one-time link.
      </p>
      {canChange ? (
        <button type="button" className="primary" onClick={() => setInviting(true)}>
          Invite a member
        </button>
      ) : null}
      <p role="status" className="muted">
        {done}
      </p>
      {members.isPending ? <Loading what="members" /> : null}
      {members.isError ? <ErrorNote error={members.error} /> : null}
      {members.data ? (
        <TableScroll label="Members">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Member since</th>
                {canChange ? (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {members.data.data.map((member) => {
                const self = member.id === myId;
                const owner = member.role === "owner";
                return (
                  <tr key={member.id} className={self ? "self" : undefined}>
                    <th scope="row">
                      {member.name}
                      {self ? <span className="tag"> (you)</span> : null}
                    </th>
                    <td>{member.email}</td>
                    <td>{ROLE_LABELS[member.role]}</td>
                    <td>
                      <When iso={member.createdAt} />
                    </td>
                    {canChange ? (
                      <td className="row-actions">
                        {owner ? <span className="muted">The owner cannot be changed</span> : null}
                        {!owner ? (
                          <button type="button" onClick={() => setChanging(member)}>
                            Change role<span className="visually-hidden"> of {member.name}</span>
                          </button>
                        ) : null}
                        {!owner && !self ? (
                          <>
                            <button type="button" onClick={() => setLinking(member)}>
                              Sign-in link
                              <span className="visually-hidden"> for {member.name}</span>
                            </button>
                            <button
                              type="button"
                              className="danger"
                              onClick={() => setRemoving(member)}
                            >
                              Remove<span className="visually-hidden"> {member.name}</span>
                            </button>
                          </>
                        ) : null}
                      </td>
                    ) : null}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
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
    </section>
  );
}
