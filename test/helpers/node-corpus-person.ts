/**
 * The corpus (node-corpus.ts) of the nodes that reach the person (docs/workflows.md):
 * create_link, send_message, ask_person, end_conversation.
 */
import type { Corpus, RawNode, Refused } from "./node-corpus";

// node-corpus.ts's `bad`, again: importing it would make the two files import each other.
const bad = (node: RawNode, ...problems: string[]): Refused => ({ node, problems });

const createLink: Corpus = {
  valid: [
    { type: "create_link", flowId: "agt_1", channelId: "ch_1" },
    {
      key: "link",
      type: "create_link",
      name: "Link",
      position: { x: 0, y: 0 },
      flowId: "{{hook.body.agent}}",
      channelId: "ch_1",
      parameters: { invoice: "{{hook.body.invoice}}", amount: 5 },
      participant: { name: "{{hook.body.name}}", externalId: "cus_1" },
      globalTask: "Help with invoice {{hook.body.invoice}}",
      expiresInSeconds: 300,
      metadata: { invoice: "{{hook.body.invoice}}" },
    },
    { type: "create_link", flowId: "a", channelId: "c", expiresInSeconds: 7_776_000 },
  ],
  invalid: [
    bad({ type: "create_link", channelId: "c" }, "flowId required"),
    bad({ type: "create_link", flowId: "", channelId: "c" }, "flowId required"),
    bad({ type: "create_link", flowId: "a" }, "channelId required"),
    bad({ type: "create_link", flowId: "a", channelId: 5 }, "channelId invalid_type"),
    bad(
      { type: "create_link", flowId: "a", channelId: "c", participant: { phone: "1" } },
      "participant invalid_type",
    ),
    bad(
      { type: "create_link", flowId: "a", channelId: "c", globalTask: 5 },
      "globalTask invalid_type",
    ),
    bad(
      { type: "create_link", flowId: "a", channelId: "c", expiresInSeconds: 299 },
      "expiresInSeconds out_of_range",
    ),
    bad(
      { type: "create_link", flowId: "a", channelId: "c", expiresInSeconds: 7_776_001 },
      "expiresInSeconds out_of_range",
    ),
  ],
};

const sendMessage: Corpus = {
  valid: [
    { type: "send_message", linkId: "{{hook.body.link}}", text: "Your order shipped." },
    {
      key: "tell",
      type: "send_message",
      name: "Tell",
      position: { x: 1, y: 1 },
      linkId: "lnk_1",
      text: "a".repeat(2_000),
    },
  ],
  invalid: [
    bad({ type: "send_message", text: "hi" }, "linkId required"),
    bad({ type: "send_message", linkId: "lnk_1" }, "text required"),
    bad({ type: "send_message", linkId: "lnk_1", text: "" }, "text required"),
    bad({ type: "send_message", linkId: "lnk_1", text: "a".repeat(2_001) }, "text out_of_range"),
  ],
};

const QUESTION = { type: "ask_person", linkId: "lnk_1", question: "Update your card?" };
const YES_NO = [
  { label: "Yes", value: "yes" },
  { label: "No", value: "no" },
];

const askPerson: Corpus = {
  valid: [
    { ...QUESTION, timeoutSeconds: 60 },
    {
      key: "ask",
      type: "ask_person",
      name: "Ask",
      position: { x: 2, y: 2 },
      linkId: "{{hook.body.link}}",
      question: "Update your card now, {{hook.body.name}}?",
      options: YES_NO,
      allowText: true,
      timeoutSeconds: 2_592_000,
    },
    { ...QUESTION, options: YES_NO, allowText: false, timeoutSeconds: 3_600 },
  ],
  invalid: [
    bad({ ...QUESTION }, "timeoutSeconds required"),
    bad({ ...QUESTION, timeoutSeconds: 59 }, "timeoutSeconds out_of_range"),
    bad({ ...QUESTION, timeoutSeconds: 2_592_001 }, "timeoutSeconds out_of_range"),
    bad({ type: "ask_person", linkId: "lnk_1", timeoutSeconds: 60 }, "question required"),
    bad({ type: "ask_person", question: "?", timeoutSeconds: 60 }, "linkId required"),
    bad({ ...QUESTION, timeoutSeconds: 60, allowText: false }, "allowText invalid_value"),
    bad({ ...QUESTION, timeoutSeconds: 60, allowText: "yes" }, "allowText invalid_type"),
    bad(
      { ...QUESTION, timeoutSeconds: 60, options: [...YES_NO, { label: "Sure", value: "yes" }] },
      "options[2].value invalid_value",
    ),
    bad(
      {
        ...QUESTION,
        timeoutSeconds: 60,
        options: Array.from({ length: 11 }, (_, i) => ({ label: `${i}`, value: `${i}` })),
      },
      "options out_of_range",
    ),
  ],
};

const endConversation: Corpus = {
  valid: [
    { type: "end_conversation", linkId: "{{hook.body.link}}" },
    {
      key: "bye",
      type: "end_conversation",
      name: "Bye",
      position: { x: 3, y: 3 },
      linkId: "lnk_1",
      reason: "Refund done",
    },
  ],
  invalid: [
    bad({ type: "end_conversation" }, "linkId required"),
    bad(
      { type: "end_conversation", linkId: "lnk_1", reason: "a".repeat(501) },
      "reason out_of_range",
    ),
  ],
};

/** The four types' corpus, by type. */
export const PERSON_CORPUS = {
  create_link: createLink,
  send_message: sendMessage,
  ask_person: askPerson,
  end_conversation: endConversation,
};
