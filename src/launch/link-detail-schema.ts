/** A link as the workspace's members see it (docs/api/manage.md#links). */
import { z } from "@hono/zod-openapi";
import { ChatMessageSchema, RatingSchema } from "../conversations";
import { LaunchSchema, linkConversation } from "./schemas";

/**
 * A link as members see it (docs/api/manage.md#links): the launch look-up's fields (never the
 * token, never the parameters), and the conversation's messages once it started, an agent's
 * with the Markdown blocks the chat renders (docs/chat.md#formatting).
 */
export const LinkDetailSchema = z
  .object({
    ...LaunchSchema.shape,
    conversation: linkConversation({
      ...LaunchSchema.shape.conversation.unwrap().shape,
      messages: z.array(ChatMessageSchema).openapi({
        description:
          "Every message, oldest first; an agent's with its Markdown `blocks`, as the chat shows them",
      }),
      // Inline: a nullable reference comes out of the generator as an odd intersection.
      rating: z.object(RatingSchema.shape).nullable().openapi({
        description:
          "The person's rating after the end (docs/api/conversations.md#rating); null until rated",
      }),
    }),
  })
  .openapi("LinkDetail");

export type LinkDetail = z.infer<typeof LinkDetailSchema>;
