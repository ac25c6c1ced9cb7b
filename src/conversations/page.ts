/**
 * The HTML document of `GET /chat`. Static on purpose: the route's CSP allows no inline script or
 * style, and the launch token lives only in the URL fragment, so `/chat.js` reads it and fills in
 * this skeleton (agent name, history, notice) in the browser. The log scrolls around a plain list:
 * `role="log"` on the list itself would take away its items' list semantics (axe-core: listitem).
 */
export function chatPageHtml(): string {
  return `<!doctype html>
<html lang="en" data-state="loading">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<title>Chat</title>
<link rel="stylesheet" href="/chat.css">
<script src="/chat.js" defer></script>
</head>
<body>
<div class="chat">
<header class="chat-header"><h1 id="agent-name">Chat</h1></header>
<main class="chat-main">
<p id="notice" class="notice" role="status" aria-live="polite">Opening your conversation&hellip;</p>
<button id="retry" class="button secondary retry" type="button" hidden>Retry</button>
<div class="messages" role="log" aria-live="polite" aria-label="Conversation"><ol id="messages" class="message-list"></ol></div>
</main>
<form id="composer" class="composer" hidden>
<label class="visually-hidden" for="message-input">Message</label>
<textarea id="message-input" name="message" rows="2" maxlength="2000" placeholder="Type a message" autocomplete="off" aria-describedby="char-count"></textarea>
<p id="char-count" class="char-count" hidden></p>
<div class="actions">
<button id="send" class="button primary" type="submit" disabled>Send</button>
<button id="end-chat" class="button secondary" type="button" disabled>End chat</button>
</div>
</form>
</div>
<noscript><p class="noscript">This chat needs JavaScript.</p></noscript>
</body>
</html>
`;
}
