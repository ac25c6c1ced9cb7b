/**
 * The nodes that reach the person (docs/workflows.md): create_link, send_message, ask_person and
 * end_conversation. Their settings are checked here as written; what their templates resolve to
 * is checked when they run, by the same rules as the launch API (runner/person-actions.ts).
 */
import { z } from "@hono/zod-openapi";
import { isPlainObject } from "../engine/template";
import { defineNode, jsonValue, requiredText, setting, wholeNumber } from "./common";

/** A workflow message's length bounds (characters), as a chat message's (docs/limits.md). */
export const MESSAGE_CHARS = { min: 1, max: 2_000 } as const;

const linkId = () =>
  requiredText('A template resolving to a link id (`lnk_…`), e.g. `"{{create_link_1.id}}"`.');

/** A message to the person: not empty (`required`), at most MESSAGE_CHARS.max characters. */
const message = () =>
  requiredText(
    `Markdown (a template); ${MESSAGE_CHARS.min} to ${MESSAGE_CHARS.max} characters once resolved.`,
    MESSAGE_CHARS.max,
  );

/** Creates a pending link, as `POST /v1/widget/launches` does (docs/workflows.md#create-link). */
export const createLink = defineNode({
  type: "create_link",
  label: "Create link",
  templated: ["flowId", "channelId", "parameters", "participant", "globalTask", "metadata"],
  description:
    "Creates a link as `POST /v1/widget/launches` does; output `{id, status, url, embedHtml, expiresAt}`, the token in `url` and `embedHtml` shown `[redacted]` (docs/workflows.md#create-link).",
  settings: () => ({
    flowId: requiredText("The agent id (a template)."),
    channelId: requiredText("The agent's widget channel id (a template)."),
    parameters: setting(jsonValue().optional(), {
      about:
        "Values for the agent's Initial Parameters (an object; strings are templates); checked as the launch API does.",
    }),
    participant: setting(
      z.strictObject({ name: z.string().optional(), externalId: z.string().optional() }).optional(),
      { about: "The person's name and your id for them (templates).", code: "invalid_type" },
    ),
    globalTask: setting(z.string().optional(), {
      about: "Extra instruction for this one conversation (a template).",
    }),
    expiresInSeconds: wholeNumber(
      300,
      7_776_000,
      "Seconds the link can be opened. Default: 604800 (7 days).",
      "expiresInSeconds must be an integer from 300 to 7776000.",
    ).optional(),
    metadata: setting(jsonValue().optional(), {
      about: "Your own string pairs on the link (strings are templates).",
    }),
  }),
  output: () => ({ id: "", status: "pending", url: "", embedHtml: "", expiresAt: "" }),
});

/** Writes an agent message into the link's conversation (docs/workflows.md#send-message). */
export const sendMessage = defineNode({
  type: "send_message",
  label: "Send message",
  templated: ["linkId", "text"],
  description:
    'Writes an agent message into the link\'s conversation; output `{messageId, delivered: "live"|"stored"}` (docs/workflows.md#send-message).',
  settings: () => ({
    linkId: linkId(),
    text: message(),
  }),
  output: () => ({ messageId: "", delivered: "live" }),
});

const Option = z.strictObject({
  label: z.string().min(1).max(100),
  value: z.string().min(1).max(100),
});

/** Asks the person and waits for the answer (docs/workflows.md#ask-person). */
export const askPerson = defineNode({
  type: "ask_person",
  label: "Ask person",
  templated: ["linkId", "question"],
  branches: ["answered", "timeout"],
  description:
    'Asks the person in the link\'s conversation and waits; connections leaving it carry `branch: "answered"` (output `{answer, answeredAt}`) or `"timeout"` (output `{timedOut: true}`) (docs/workflows.md#ask-person).',
  settings: () => ({
    linkId: linkId(),
    question: message(),
    options: setting(z.array(Option).max(10).optional(), {
      about:
        "Buttons the person may answer with: at most 10, `value`s unique; the answer is the value.",
    }),
    allowText: setting(z.boolean().optional(), {
      about: "Whether the person may answer in their own words. Default: true without options.",
    }),
    // A minute to 30 days (docs/limits.md).
    timeoutSeconds: setting(z.number().int().min(60).max(2_592_000), {
      about: "How long to wait for the answer (s), 60 to 2592000; it outlives restarts.",
    }),
  }),
  rules: (node, flag) => {
    const options = Array.isArray(node.options) ? node.options : [];
    const values = options.map((option) => (isPlainObject(option) ? option.value : undefined));
    for (const [index, value] of values.entries()) {
      if (value === undefined || values.indexOf(value) === index) continue;
      const message = `Option values must be unique; "${String(value)}" repeats.`;
      flag(["options", index, "value"], "invalid_value", message);
    }
    if (options.length === 0 && node.allowText === false) {
      const message = "With no options, allowText must not be false: there would be no answer.";
      flag(["allowText"], "invalid_value", message);
    }
  },
  normalize: (node) => ({
    ...node,
    options: node.options ?? [],
    allowText: node.allowText ?? (node.options ?? []).length === 0,
  }),
  output: () => ({ answer: "", answeredAt: "", timedOut: true }),
});

/** Ends the link's conversation, as `POST /v1/widget/launches/{id}/end` (docs/workflows.md#end-conversation). */
export const endConversation = defineNode({
  type: "end_conversation",
  label: "End conversation",
  templated: ["linkId", "reason"],
  description:
    "Ends the link's conversation as `POST /v1/widget/launches/{id}/end` does; output `{linkId, ended, reason}` (docs/workflows.md#end-conversation).",
  settings: () => ({
    linkId: linkId(),
    reason: setting(z.string().max(500).optional(), {
      about: "A free note kept in the node's output; the event's reason stays `server`.",
      code: "out_of_range",
    }),
  }),
  output: () => ({ linkId: "", ended: true, reason: "" }),
});
