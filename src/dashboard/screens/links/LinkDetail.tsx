/**
 * A link's page (docs/dashboard.md#screens): its status, the person, metadata and times, the
 * ended conversation's analysis, and the conversation's messages, read again every few seconds while it is in progress. Owners and Admins
 * may end the conversation or revoke the link from here.
 */
import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useEffect, useState } from "react";
import { api, unwrap } from "../../api";
import { useAgents } from "../../queries";
import { QueryStatus, When } from "../../ui/feedback";
import { Screen, Trail } from "../../ui/Screen";
import { awaitingAnalysis } from "./analysis-format";
import { personName, StatusBadge } from "./format";
import { LinkActions } from "./LinkActions";
import { LinkAnalysis } from "./LinkAnalysis";
import { linksHome } from "./LinkList";
import { Transcript } from "./Transcript";

/** How often an open conversation is read again, in ms. */
const LIVE_REFRESH_MS = 5_000;

/**
 * The page of link `id` (docs/dashboard.md#screens); `canChange` (Owners and Admins) adds the end
 * and revoke actions.
 */
export function LinkDetail({ id, canChange }: { id: string; canChange: boolean }) {
  const agents = useAgents();
  const analyses = (flowId: string | undefined) =>
    Boolean(agents.data?.data.find((agent) => agent.id === flowId)?.analysis);
  const link = useQuery({
    queryKey: ["link", id],
    queryFn: () => unwrap(api.GET("/v1/manage/links/{id}", { params: { path: { id } } })),
    // Read again while the conversation is open, and after its end until its analysis comes.
    refetchInterval: ({ state: { data } }) =>
      data?.conversation?.status === "in-progress" ||
      awaitingAnalysis(data?.conversation, analyses(data?.flowId))
        ? LIVE_REFRESH_MS
        : false,
  });
  const [note, setNote] = useState("");
  const title = link.data ? `Link for ${personName(link.data.participant)}` : "Link";
  useEffect(() => {
    document.title = `${title} · agent-edge`;
  }, [title]);
  useEffect(() => {
    // Opening a link is a navigation within the Links screen: its heading takes focus, as a new
    // screen's does, so a screen reader says where we are.
    if (link.isSuccess) document.querySelector<HTMLElement>("main h1")?.focus();
  }, [link.isSuccess]);

  const back = <Trail links={[{ href: linksHome(), label: "Links" }]} />;
  if (link.isPending || link.isError) {
    return (
      <>
        <p className="breadcrumb">{back}</p>
        <QueryStatus query={link} what="the link" />
      </>
    );
  }
  const data = link.data;
  const agentName =
    agents.data?.data.find((agent) => agent.id === data.flowId)?.name ?? data.flowId;
  const metadata = Object.entries(data.metadata);
  const done = (text: string) => {
    setNote(text);
    document.querySelector<HTMLElement>("main h1")?.focus();
  };

  return (
    <Screen title={title} breadcrumb={back}>
      <p className="link-status">
        <StatusBadge status={data.status} />
      </p>
      <p role="status" className="link-note">
        {note}
      </p>
      {canChange ? <LinkActions link={data} onDone={done} /> : null}
      <div className="link-facts">
        <section aria-labelledby="facts-title">
          <h2 id="facts-title">Details</h2>
          <dl className="link-fact-list">
            <Fact label="Person">{personName(data.participant)}</Fact>
            <Fact label="External id">
              {data.participant.externalId ?? <span className="muted">None</span>}
            </Fact>
            <Fact label="Agent">{agentName}</Fact>
            <Fact label="Created">
              <When iso={data.createdAt} />
            </Fact>
            <Fact label="Expires">
              <When iso={data.expiresAt} />
            </Fact>
            <Fact label="Opened">
              <When iso={data.conversation?.startedAt} />
            </Fact>
            <Fact label="Ended">
              <When iso={data.conversation?.endedAt} />
            </Fact>
            <Fact label="Link id">
              <code>{data.id}</code>
            </Fact>
          </dl>
        </section>
        <section aria-labelledby="metadata-title">
          <h2 id="metadata-title">Metadata</h2>
          {metadata.length === 0 ? (
            <p className="muted">None.</p>
          ) : (
            <dl className="link-fact-list">
              {metadata.map(([key, value]) => (
                <Fact key={key} label={<code>{key}</code>}>
                  {value}
                </Fact>
              ))}
            </dl>
          )}
        </section>
      </div>
      <LinkAnalysis
        analysis={data.conversation?.analysis}
        waiting={awaitingAnalysis(data.conversation, analyses(data.flowId))}
      />
      <section aria-labelledby="conversation-title">
        <h2 id="conversation-title">Conversation</h2>
        <Transcript
          conversation={data.conversation}
          agentName={agentName}
          personName={personName(data.participant)}
        />
      </section>
    </Screen>
  );
}

/** One term and its value in a `<dl>`, kept together so they can sit side by side. */
function Fact(props: { label: ReactNode; children: ReactNode }) {
  return (
    <div className="fact">
      <dt>{props.label}</dt>
      <dd>{props.children}</dd>
    </div>
  );
}
