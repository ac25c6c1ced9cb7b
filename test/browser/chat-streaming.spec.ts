/**
 * Replies that stream, on the chat page in a real browser (docs/chat.md#replies), at desktop and
 * 375 px, light and dark: the scripted brain streams a reply word by word as `delta` frames; the
 * page shows it in parts as plain text, hidden from screen readers, then the final message in its
 * place, whole, with its Markdown, announced once by the log. A reply cut off midway shows as
 * such. The socket passes through a Playwright route that holds the agent's frames and lets them
 * through one at a time. Screenshots go to test-results/browser/chat-17-*.png.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
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

type Frame = { type: string; id?: string; text?: string; message?: Record<string, unknown> };

/** The agent's frames (deltas and messages) the route holds until the test lets them through. */
type Held = { frames: Frame[]; send: (frame: Frame) => void };

async function holdAgentFrames(page: Page, held: Held): Promise<void> {
  await page.routeWebSocket(/\/socket\?ticket=/, (ws) => {
    const server = ws.connectToServer();
    held.send = (frame) => ws.send(JSON.stringify(frame));
    server.onMessage((data) => {
      const frame = JSON.parse(String(data)) as Frame;
      const agent =
        frame.type === "delta" || (frame.type === "message" && frame.message?.role === "agent");
      if (agent) held.frames.push(frame);
      else ws.send(data);
    });
  });
}

/** Waits until the route holds a frame of `type`, then hands it over (without sending it). */
async function nextHeld(held: Held, type: string): Promise<Frame> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const index = held.frames.findIndex((f) => f.type === type);
    if (index >= 0) return held.frames.splice(index, 1)[0] as Frame;
    if (Date.now() > deadline) throw new Error(`no ${type} frame held`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const REPLY = "Replies **stream** word by word, then show whole.";

describe("replies that stream", () => {
  it("17. a streamed reply appears in parts as text, then whole with its Markdown, announced once", async () => {
    const w = world();
    const agent = await createAgent(w, {
      name: "Streamer",
      greeting: "Hi {{participant.name}}, ask me about streaming.",
      instructions: `streaming: ${REPLY}`,
    });
    for (const variant of VARIANTS) {
      const link = await createLink(w, { ...agent, parameters: {} });
      const held: Held = { frames: [], send: () => {} };
      const chat = await openChat(w, link.url, variant, (page) => holdAgentFrames(page, held));
      const { page } = chat;
      await waitForState(page, "open");
      await page.locator("#message-input").fill("How does streaming work?");
      await page.locator("#message-input").press("Enter");
      await page.locator("#messages .message.person").waitFor();

      // The words arrive one by one: the draft grows with each, as plain text.
      const draft = page.locator("#messages .message.draft");
      const words = REPLY.match(/\S+\s*/g) ?? [];
      let shown = "";
      const ids = new Set<unknown>();
      for (const [index, word] of words.entries()) {
        const delta = await nextHeld(held, "delta");
        expect(delta.text).toBe(word);
        ids.add(delta.id);
        held.send(delta);
        shown += word;
        await expect.poll(() => draft.textContent(), { timeout: 5_000 }).toBe(shown);
        if (index === 3) {
          expect(await draft.getAttribute("aria-hidden")).toBe("true");
          // Text only while it streams: the Markdown marks are still characters.
          expect(await draft.locator("strong").count()).toBe(0);
          expect(shown).toContain("**stream**");
          // Screen readers hear none of the draft: only the log's messages and the typing status.
          expect(await page.locator("#messages").ariaSnapshot()).not.toContain("word by");
          await page.getByText("Streamer is typing…").waitFor();
          await shot(chat, "17-streaming");
        }
      }

      // The final message takes the draft's place, whole and formatted, once.
      const final = await nextHeld(held, "message");
      expect([...ids]).toEqual([final.message?.id]);
      held.send(final);
      const reply = page.locator("#messages .message.agent").last();
      await reply.locator("strong", { hasText: "stream" }).waitFor();
      expect(await draft.count()).toBe(0);
      expect(await page.locator("#messages .message.agent").count()).toBe(2);
      expect((await reply.locator(".text").textContent())?.trim()).toBe(
        "Replies stream word by word, then show whole.",
      );
      const snapshot = await page.locator("#messages").ariaSnapshot();
      expect(snapshot.split("word by word").length - 1).toBe(1);
      expect(await page.locator("#typing").textContent()).toBe("");
      await shot(chat, "17-streamed");

      // A reply cut off midway arrives whole as far as it came, and says it was cut off.
      await page.locator("#message-input").fill("streaming again?");
      await page.locator("#message-input").press("Enter");
      const first = await nextHeld(held, "delta");
      held.send(first);
      await draft.waitFor();
      const cut = await nextHeld(held, "message");
      // As the server sends one: the text that came, its blocks, marked interrupted.
      const text = String(first.text).trim();
      const blocks = [{ type: "p", spans: [{ text }] }];
      const message = { ...cut.message, text, blocks, interrupted: true };
      held.send({ type: "message", message });
      const last = page.locator("#messages .message.agent").last();
      await last.getByText("This reply was cut off.").waitFor();
      expect((await last.locator(".text").textContent())?.trim()).toBe("Replies");
      expect(await draft.count()).toBe(0);
      await shot(chat, "17-cut-off");
      expect(chat.problems).toEqual([]);
      await closeChat(chat);
    }
  });
});
