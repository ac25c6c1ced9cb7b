/**
 * A link's conversation as a readable transcript (docs/dashboard.md#screens): who said what and
 * when, oldest first, as the person saw it in the chat: an agent's Markdown rendered from the
 * API's `blocks` with the chat's safe rules (ui/RichText.tsx), a person's words as typed.
 */
import type { Schemas } from "../../api";
import { When } from "../../ui/feedback";
import { RichText } from "../../ui/RichText";

type Conversation = NonNullable<Schemas["LinkDetail"]["conversation"]>;

/** The messages of `conversation` (null: never opened), each with who said it and when. */
export function Transcript(props: {
  conversation: Schemas["LinkDetail"]["conversation"];
  agentName: string;
  personName: string;
}) {
  const { conversation } = props;
  if (!conversation) {
    return <p className="muted">Nobody has opened this link yet, so there is no conversation.</p>;
  }
  return (
    <>
      <p className="muted">{state(conversation)}</p>
      {conversation.messages.length === 0 ? (
        <p className="muted">No messages yet.</p>
      ) : (
        <ol className="transcript" aria-label="Messages, oldest first">
          {conversation.messages.map((message) => (
            <li key={message.id} className={`message from-${message.role}`}>
              <p className="said-by">
                <strong>{message.role === "agent" ? props.agentName : props.personName}</strong>{" "}
                <When iso={message.at} />
              </p>
              {message.blocks ? (
                <div className="said">
                  <RichText blocks={message.blocks} />
                </div>
              ) : (
                <p className="said">{message.text}</p>
              )}
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

function state(conversation: Conversation): string {
  const started = new Date(conversation.startedAt).toLocaleString();
  if (conversation.status === "ended" && conversation.endedAt) {
    return `Started ${started}; ended ${new Date(conversation.endedAt).toLocaleString()}.`;
  }
  return `Started ${started}; in progress (new messages appear here within a few seconds).`;
}
