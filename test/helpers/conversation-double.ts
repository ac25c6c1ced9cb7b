/**
 * A test double of the Conversation's `postWorkflowMessage` (design of docs/workflows.md; the
 * chat side builds the real one): the Worker, its objects and the tests share one isolate, so a
 * method put on the class's prototype here answers the runner's RPC. It records each post and answers as the contract says: a repeat of an id the first outcome, `stored`.
 */

import type { PostedMessage, WorkflowMessage } from "../../src/conversations/conversation/contract";
import { Conversation } from "../../src/index";

export type Post = {
  /** The object's name where the runtime tells it (the session id), else null. */
  sessionId: string | null;
  message: WorkflowMessage;
  link: { linkId: string; workspaceId: string; expiresAt: number };
};

/** Every post, oldest first. */
export const posts: Post[] = [];
/** When set, the next post is recorded, then answered only once this settles (a post under way). */
export const holdNextPost: { until: Promise<void> | null } = { until: null };
/** Links whose conversation refuses posts, by link id, with the reason. */
export const refusing = new Map<string, "ended" | "revoked" | "expired">();

type Proto = Record<string, unknown>;
const proto = Conversation.prototype as unknown as Proto;
let original: unknown;

/** Puts the double in place (call in beforeAll); `remove` puts back what was there. */
export function installConversationDouble(): void {
  original = proto.postWorkflowMessage;
  proto.postWorkflowMessage = async function (
    this: { ctx: DurableObjectState },
    message: WorkflowMessage,
    link: Post["link"],
  ): Promise<PostedMessage> {
    const sessionId = this.ctx.id.name ?? null;
    const reason = refusing.get(link.linkId);
    if (reason) return { ok: false, reason };
    if (!posts.some((post) => post.message.id === message.id)) {
      posts.push({ sessionId, message, link });
    }
    const { until } = holdNextPost;
    holdNextPost.until = null;
    if (until) await until;
    return { ok: true, messageId: message.id, delivered: "stored" };
  };
}

export function removeConversationDouble(): void {
  if (original === undefined) delete proto.postWorkflowMessage;
  else proto.postWorkflowMessage = original;
}
