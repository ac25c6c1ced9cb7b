import { escapeAttribute } from "../platform/html";
import type { ChatAssets } from "./assets";

/**
 * The static document of `GET /chat` and `GET /chat/embed/{channelId}` (docs/chat.md): no inline
 * code, the token only in the fragment, so the script fills in the skeleton.
 * @param assets the hashed paths of the page's script and styles (docs/chat.md#assets-and-caching),
 *   and of the rating's, named in meta tags: the page loads them only after the end
 *   (docs/chat.md#rating)
 * @param channelId named in the document, so the page opens its session for the channel whose
 *   policy it was served under (docs/security.md#chat-embedding)
 */
export function chatPageHtml(assets: ChatAssets, channelId?: string): string {
  const channel =
    channelId === undefined
      ? ""
      : `<meta name="agent-edge-channel" content="${escapeAttribute(channelId)}">\n`;
  return `<!doctype html>
<html lang="en" data-state="loading">
<head>
<meta charset="utf-8">
${channel}<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<link rel="icon" href="data:,">
<title>Chat</title>
<meta name="agent-edge-rating-script" content="${escapeAttribute(assets.ratingScript)}">
<meta name="agent-edge-rating-style" content="${escapeAttribute(assets.ratingStyle)}">
<link rel="stylesheet" href="${escapeAttribute(assets.style)}">
<script src="${escapeAttribute(assets.script)}" defer></script>
</head>
<body>
<div class="chat">
<header class="chat-header"><h1 id="agent-name" dir="auto">Chat</h1></header>
<main class="chat-main">
<div class="log">
<div id="messages" class="messages" role="log" aria-label="Conversation" tabindex="0"><ol id="message-list" class="message-list"></ol></div>
<button id="new-messages" class="button primary new-messages" type="button" hidden>New messages <span aria-hidden="true">&darr;</span></button>
</div>
<p id="typing" class="typing" role="status"></p>
<p id="notice" class="notice" role="status" aria-live="polite">Opening your conversation&hellip;</p>
<button id="retry" class="button secondary retry" type="button" hidden>Try again</button>
<form id="composer" class="composer" aria-label="Your message" hidden>
<label class="visually-hidden" for="message-input">Message</label>
<textarea id="message-input" name="message" dir="auto" rows="2" maxlength="2000" placeholder="Type a message" autocomplete="off" aria-describedby="char-count"></textarea>
<p id="char-count" class="char-count" hidden></p>
<div class="actions">
<button id="send" class="button primary" type="submit" disabled>Send</button>
<button id="end-chat" class="button secondary" type="button" disabled>End chat</button>
</div>
</form>
<dialog id="end-dialog" class="dialog" aria-labelledby="end-title" aria-describedby="end-text">
<h2 id="end-title">End this chat?</h2>
<p id="end-text">You will not be able to send more messages in this conversation.</p>
<div class="actions">
<button id="end-cancel" class="button secondary" type="button">Keep chatting</button>
<button id="end-confirm" class="button primary" type="button">End chat</button>
</div>
</dialog>
<noscript><p class="noscript">This chat needs JavaScript.</p></noscript>
</main>
</div>
</body>
</html>
`;
}
