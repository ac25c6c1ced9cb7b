/**
 * The agent's replies on the chat page in a real browser (docs/chat.md#replies), at desktop and
 * 375 px, light and dark: "… is typing" while the agent writes; a reply that fails or takes over
 * 30 s gets a clear message and "Try again", which brings the reply; agent messages show a safe
 * subset of Markdown (links open in a new tab), the person's stay plain text. The socket passes through a
 * Playwright route that can hold, drop or replace the server's agent messages, so a slow or
 * failing agent is shown without a real model. A workflow's question (docs/chat.md#questions) comes
 * the same way: the route plays the conversation's part (test/conversations/questions.test.ts shows
 * the server's). Screenshots go to test-results/browser/chat-*.png.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  type ChatPage,
  closeChat,
  createAgent,
  createLink,
  openChat,
  setUpChatWorld,
  shot,
  VARIANTS,
  waitForState,
} from "./chat-harness";

const world = setUpChatWorld();

/** What the route does with the server's agent messages: pass, hold, drop or fail them. */
type Mode = "pass" | "hold" | "drop" | "fail";

/** What the socket's route does now, the messages it holds, and how many it has dropped. */
type Control = { mode: Mode; held: (() => void)[]; dropped: number };

/** Routes the page's socket through the test; `mode` decides the agent messages' fate. */
async function routeSocket(page: Page, control: Control) {
  await page.routeWebSocket(/\/socket\?ticket=/, (ws) => {
    const server = ws.connectToServer();
    server.onMessage((data) => {
      const frame = JSON.parse(String(data)) as { type: string; message?: { role: string } };
      const agentMessage = frame.type === "message" && frame.message?.role === "agent";
      if (!agentMessage || control.mode === "pass") ws.send(data);
      else if (control.mode === "hold") control.held.push(() => ws.send(data));
      else if (control.mode === "drop") control.dropped++;
      else if (control.mode === "fail") {
        const error = {
          code: "reply_failed",
          message: "The agent could not reply.",
          details: [{ reason: "failed" }],
        };
        ws.send(JSON.stringify({ type: "error", error }));
      }
    });
  });
}

async function send(chat: ChatPage, text: string): Promise<void> {
  await chat.page.locator("#message-input").fill(text);
  await chat.page.locator("#message-input").press("Enter");
  await chat.page.locator("#messages .message.person", { hasText: text }).waitFor();
}

const typing = (page: Page) => page.locator("#typing");
const tryAgain = (page: Page) => page.getByRole("button", { name: "Try again" });

describe("the agent's replies", () => {
  it("3. the agent is shown typing; a failed or late reply says so and Try again brings it", async () => {
    const w = world();
    for (const variant of VARIANTS) {
      const link = await createLink(w);
      const control: Control = { mode: "hold", held: [], dropped: 0 };
      const chat = await openChat(w, link.url, variant, async (page) => {
        await page.clock.install();
        await routeSocket(page, control);
      });
      const { page } = chat;
      await waitForState(page, "open");

      // Typing while the reply is held back, then the reply and no indicator.
      await send(chat, "Are you there?");
      await typing(page).getByText("Onboarding assistant is typing…").waitFor();
      await shot(chat, "3-typing");
      for (const release of control.held.splice(0)) release();
      await page.locator("#messages .message.agent", { hasText: "Are you there?" }).waitFor();
      expect(await typing(page).textContent()).toBe("");

      // A failed reply: a message and Try again, which brings the reply that exists by now.
      control.mode = "fail";
      await send(chat, "Second question");
      await page.getByText("Onboarding assistant could not reply. Please try again.").waitFor();
      await tryAgain(page).waitFor();
      expect(await typing(page).textContent()).toBe("");
      await shot(chat, "3-reply-failed");
      control.mode = "pass";
      await tryAgain(page).click();
      await page.locator("#messages .message.agent", { hasText: "Second question" }).waitFor();
      await tryAgain(page).waitFor({ state: "hidden" });
      expect(await page.locator("#notice").textContent()).toBe("");

      // Nothing at all for 30 s: the page says so by itself.
      control.mode = "drop";
      await send(chat, "Third question");
      await typing(page).getByText("Onboarding assistant is typing…").waitFor();
      await page.clock.fastForward(29_000);
      expect(await tryAgain(page).isVisible(), `${variant.name}: late before 30 s`).toBe(false);
      await page.clock.fastForward(1_500);
      await page.getByText("Onboarding assistant is taking too long to reply.").waitFor();
      expect(await typing(page).textContent()).toBe("");
      await shot(chat, "3-reply-late");
      // The server's reply has to be dropped before the route passes messages again: arriving
      // after that, it would answer the question itself and take Try again away (a race CI met).
      await expect.poll(() => control.dropped, { timeout: 15_000 }).toBeGreaterThan(0);
      control.mode = "pass";
      await tryAgain(page).click();
      await page.locator("#messages .message.agent", { hasText: "Third question" }).waitFor();
      expect(chat.problems).toEqual([]);
      await closeChat(chat);
    }
  });

  it("5. agent messages show safe Markdown; the person's stay plain text", async () => {
    const w = world();
    const agent = await createAgent(w, {
      name: "Support desk",
      greeting: [
        "Hi **{{participant.name}}**, *welcome*! Here is what you get:",
        "",
        "- Unlimited `API` calls",
        "- Priority support",
        "  1. by mail",
        "  2. by phone",
        "",
        "See [the docs](https://example.com/docs), https://example.com/pricing or [mail us](mailto:help@example.com).",
        '[Not a link](javascript:alert(1)) <img src=x onerror="window.hacked=1"> <b>stays text</b>',
      ].join("\n"),
      instructions:
        "pricing: Our **Pro plan** costs $20/month. See [pricing](https://example.com/pricing).",
    });
    for (const variant of VARIANTS) {
      const link = await createLink(w, { ...agent, parameters: {} });
      const chat = await openChat(w, link.url, variant);
      const { page } = chat;
      await waitForState(page, "open");
      const greeting = page.locator("#messages .message.agent").first();
      await greeting.locator("strong", { hasText: "Ada" }).waitFor();
      expect(await greeting.locator("em").allTextContents()).toEqual(["welcome"]);
      expect(await greeting.locator(":scope .text > ul > li").count()).toBe(2);
      expect(await greeting.locator("ul ol > li").allTextContents()).toEqual([
        "by mail",
        "by phone",
      ]);
      expect(await greeting.locator("code").allTextContents()).toEqual(["API"]);
      const links = await greeting
        .locator("a")
        .evaluateAll((anchors) =>
          anchors.map((a) => [
            a.textContent,
            a.getAttribute("href"),
            a.getAttribute("target"),
            a.getAttribute("rel"),
          ]),
        );
      expect(links).toEqual([
        ["the docs", "https://example.com/docs", "_blank", "noopener noreferrer"],
        [
          "https://example.com/pricing",
          "https://example.com/pricing",
          "_blank",
          "noopener noreferrer",
        ],
        ["mail us", "mailto:help@example.com", "_blank", "noopener noreferrer"],
      ]);
      // HTML and unsafe links arrive as their text, never as elements.
      await greeting.getByText("<b>stays text</b>", { exact: false }).waitFor();
      expect(await page.locator("#messages img, #messages b, #messages script").count()).toBe(0);
      expect(await greeting.textContent()).toContain("Not a link");
      expect(await page.evaluate(() => (window as { hacked?: number }).hacked)).toBeUndefined();

      // Live replies are formatted too; the person's own Markdown stays as typed.
      await page.locator("#message-input").fill("**pricing** please");
      await page.locator("#message-input").press("Enter");
      const reply = page.locator("#messages .message.agent").nth(1);
      await reply.locator("strong", { hasText: "Pro plan" }).waitFor();
      expect(await reply.locator("a").getAttribute("href")).toBe("https://example.com/pricing");
      const mine = page.locator("#messages .message.person").last();
      expect(await mine.locator(".text").textContent()).toBe("**pricing** please");
      expect(await mine.locator("strong").count()).toBe(0);
      await shot(chat, "5-markdown");
      expect(chat.problems).toEqual([]);
      await closeChat(chat);
    }
  });

  it("18. a workflow's question: buttons in a named group answered by one; text by the composer; closed", async () => {
    const w = world();
    /** A workflow's message asking `text`, as the conversation sends it. */
    const asking = (id: string, text: string, options: { label: string; value: string }[]) => ({
      id: `msg_${id}`,
      role: "agent",
      text,
      at: new Date().toISOString(),
      blocks: [{ type: "p", spans: [{ text }] }],
      source: "workflow",
      question: { id: `qst_${id}`, options, allowText: options.length === 0 },
    });
    const card = asking("card", "Update your card now?", [
      { label: "Update my card", value: "yes" },
      { label: "Not now", value: "no" },
    ]);
    const address = asking("address", "Where should the new card go?", []);
    const asked = [card, address];
    for (const variant of [VARIANTS[0], VARIANTS[3]] as const) {
      if (!variant) continue;
      const link = await createLink(w);
      const answers: unknown[] = [];
      let toPage: (frame: unknown) => void = () => {};
      const chat = await openChat(w, link.url, variant, async (page) => {
        await page.routeWebSocket(/\/socket\?ticket=/, (ws) => {
          const server = ws.connectToServer();
          toPage = (frame) => ws.send(JSON.stringify(frame));
          ws.onMessage((data) => {
            const frame = JSON.parse(String(data)) as {
              type: string;
              questionId?: string;
              value?: string;
            };
            if (frame.type !== "answer") return server.send(data);
            answers.push(frame);
            // What the conversation sends: the answer as the person's message (an option's
            // label), then the question's message again, closed.
            const message = asked.find((m) => m.question.id === frame.questionId);
            if (!message) return;
            const option = message.question.options.find((o) => o.value === frame.value);
            const text = option?.label ?? frame.value;
            const at = new Date().toISOString();
            const answerTo = frame.questionId;
            toPage({
              type: "message",
              message: { id: `msg_a${answers.length}`, role: "person", text, at, answerTo },
            });
            toPage({
              type: "message",
              message: { ...message, question: { ...message.question, closed: true } },
            });
          });
        });
      });
      const { page } = chat;
      await waitForState(page, "open");
      toPage({ type: "message", message: card });
      const group = page.getByRole("group", { name: "Update your card now?" });
      await group.waitFor();
      expect(await group.getByRole("button").allTextContents()).toEqual([
        "Update my card",
        "Not now",
      ]);
      await shot(chat, "18-question");

      // By keyboard: the button answers with its value, shown as the person's message (its label).
      await group.getByRole("button", { name: "Update my card" }).focus();
      await page.keyboard.press("Enter");
      await page.locator("#messages .message.person", { hasText: "Update my card" }).waitFor();
      expect(answers).toEqual([{ type: "answer", questionId: "qst_card", value: "yes" }]);
      // The answer below the question says it: the buttons went, and focus went to the composer.
      await expect.poll(() => page.getByRole("group").count()).toBe(0);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("message-input");
      await shot(chat, "18-answered");

      // A question that takes text: the composer's next message is its answer.
      toPage({ type: "message", message: address });
      await page.getByText("Type your answer below.").waitFor();
      await page.locator("#message-input").fill("12 Harbour Road");
      await page.locator("#message-input").press("Enter");
      await page.locator("#messages .message.person", { hasText: "12 Harbour Road" }).waitFor();
      expect(answers.at(-1)).toEqual({
        type: "answer",
        questionId: "qst_address",
        value: "12 Harbour Road",
      });
      await expect.poll(() => page.getByText("Type your answer below.").count()).toBe(0);

      // Closed unanswered (the conversation or link ended): said in place of the buttons.
      const late = asking("late", "Still there?", [{ label: "Yes", value: "yes" }]);
      toPage({ type: "message", message: late });
      await page.getByRole("group", { name: "Still there?" }).waitFor();
      toPage({
        type: "message",
        message: { ...late, question: { ...late.question, closed: true } },
      });
      await page.getByText("Question closed.").waitFor();
      expect(await page.getByRole("group").count()).toBe(0);
      await shot(chat, "18-closed");
      expect(chat.problems).toEqual([]);
      await closeChat(chat);
    }
  });
});
