// The embed script served as `/widget.js`. A customer's page includes it with a script tag carrying
// `data-launch`; it adds a launcher button that opens the hosted chat page in an iframe. Everything
// lives in a shadow root so the page's CSS and ours cannot affect each other.

import { isWidgetMessage, type ShownMessage, WIDGET_MESSAGE } from "./widget-protocol";

const HOST_ID = "agent-edge-widget";
const SVG_NS = "http://www.w3.org/2000/svg";

const CSS = `
:host { all: initial; }
[hidden] { display: none !important; }
button { font: inherit; margin: 0; cursor: pointer; }
.launcher {
  position: fixed; right: 20px; bottom: 20px; z-index: 2147483646;
  width: 56px; height: 56px; padding: 0; border: 0; border-radius: 50%;
  display: grid; place-items: center;
  background: #1d4ed8; color: #fff; box-shadow: 0 4px 14px rgba(0, 0, 0, 0.28);
}
.launcher:hover { background: #1e40af; }
.launcher svg { width: 28px; height: 28px; }
.badge {
  position: absolute; top: -4px; right: -4px; min-width: 22px; height: 22px; padding: 0 6px;
  box-sizing: border-box; border: 2px solid #fff; border-radius: 11px;
  background: #b42318; color: #fff; font: 700 12px/18px system-ui, sans-serif; text-align: center;
}
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.launcher:focus-visible, .close:focus-visible {
  outline: 3px solid #111827; outline-offset: 2px; box-shadow: 0 0 0 2px #fff;
}
.panel {
  position: fixed; right: 20px; bottom: 88px; z-index: 2147483647;
  width: 380px; height: 560px; max-width: calc(100vw - 40px); max-height: calc(100vh - 108px);
  display: flex; flex-direction: column; overflow: hidden;
  background: #fff; border: 1px solid rgba(0, 0, 0, 0.15); border-radius: 12px;
  box-shadow: 0 12px 32px rgba(0, 0, 0, 0.25);
}
.bar {
  display: flex; align-items: center; justify-content: space-between; padding: 4px 4px 4px 14px;
  background: #1d4ed8; color: #fff;
  font: 600 15px/1.2 system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif;
}
.close {
  width: 40px; height: 40px; padding: 0; border: 0; border-radius: 8px;
  background: transparent; color: #fff; font-size: 26px; line-height: 1;
}
.close:hover { background: rgba(255, 255, 255, 0.18); }
iframe { flex: 1; display: block; width: 100%; min-height: 0; border: 0; background: #fff; }
@media (max-width: 480px) {
  .panel {
    inset: 0; width: 100%; height: 100%; max-width: none; max-height: none;
    border: 0; border-radius: 0;
  }
}
@media (prefers-reduced-motion: no-preference) {
  .launcher { transition: transform 0.15s ease, background-color 0.15s ease; }
  .launcher:hover { transform: scale(1.05); }
}
`;

type WidgetWindow = Window & { __agentEdgeWidgetTokens?: Set<string> };

// Captured at top level: `document.currentScript` is only set while this script first runs.
const script =
  document.currentScript instanceof HTMLScriptElement
    ? document.currentScript
    : document.querySelector<HTMLScriptElement>('script[src$="/widget.js"][data-launch]');

/** A chat bubble icon, built with DOM calls so pages enforcing Trusted Types do not block it. */
function chatIcon(): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const path = document.createElementNS(SVG_NS, "path");
  path.setAttribute("fill", "currentColor");
  path.setAttribute(
    "d",
    "M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2zm3 6a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm5 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm5 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3z",
  );
  svg.append(path);
  return svg;
}

/** Styles the shadow root; a constructed sheet is preferred because page CSPs cannot block it. */
function addStyles(shadow: ShadowRoot): void {
  if ("adoptedStyleSheets" in shadow && "replaceSync" in CSSStyleSheet.prototype) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
    shadow.adoptedStyleSheets = [sheet];
    return;
  }
  const style = document.createElement("style");
  style.textContent = CSS;
  shadow.append(style);
}

/** Builds the launcher and panel for one launch token and appends them to the page. */
function mount(token: string, origin: string): void {
  // A custom tag name keeps the page's element selectors (div, aside…) off the host.
  const host = document.createElement("agent-edge-widget");
  host.id = document.getElementById(HOST_ID) ? `${HOST_ID}-${Date.now()}` : HOST_ID;
  const shadow = host.attachShadow({ mode: "open" });
  addStyles(shadow);

  const launcher = document.createElement("button");
  launcher.type = "button";
  launcher.id = "agent-edge-launcher";
  launcher.className = "launcher";
  launcher.setAttribute("part", "launcher");
  launcher.setAttribute("aria-label", "Open chat");
  launcher.setAttribute("aria-expanded", "false");
  launcher.setAttribute("aria-controls", "agent-edge-panel");
  const badge = document.createElement("span");
  badge.className = "badge";
  badge.setAttribute("part", "badge");
  badge.setAttribute("aria-hidden", "true");
  badge.hidden = true;
  launcher.append(chatIcon(), badge);
  // The launcher's name carries the count; this polite region says a reply came in, once.
  const news = document.createElement("span");
  news.className = "sr";
  news.setAttribute("role", "status");
  let unread = 0;
  const setUnread = (count: number): void => {
    unread = count;
    badge.hidden = count === 0;
    badge.textContent = count > 9 ? "9+" : String(count);
    const label = count === 0 ? "" : `, ${count} unread message${count === 1 ? "" : "s"}`;
    launcher.setAttribute("aria-label", `Open chat${label}`);
    news.textContent = count === 0 ? "" : `New message in the chat${label}`;
  };

  const panel = document.createElement("div");
  panel.id = "agent-edge-panel";
  panel.className = "panel";
  panel.setAttribute("part", "panel");
  panel.setAttribute("role", "dialog");
  panel.setAttribute("aria-label", "Chat");
  panel.hidden = true;

  const bar = document.createElement("div");
  bar.className = "bar";
  const title = document.createElement("span");
  title.textContent = "Chat";
  const close = document.createElement("button");
  close.type = "button";
  close.className = "close";
  close.setAttribute("part", "close");
  close.setAttribute("aria-label", "Close chat");
  const cross = document.createElement("span");
  cross.setAttribute("aria-hidden", "true");
  cross.textContent = "×";
  close.append(cross);
  bar.append(title, close);
  panel.append(bar);

  let frame: HTMLIFrameElement | null = null;

  const open = (): void => {
    // Created on first open so pages where nobody chats never load the chat page.
    if (!frame) {
      frame = document.createElement("iframe");
      frame.title = "Chat";
      frame.referrerPolicy = "no-referrer";
      frame.src = `${origin}/chat#launch=${encodeURIComponent(token)}&embed=1`;
      panel.append(frame);
    }
    panel.hidden = false;
    launcher.setAttribute("aria-expanded", "true");
    setUnread(0);
    frame.focus();
  };

  const hide = (): void => {
    panel.hidden = true;
    launcher.setAttribute("aria-expanded", "false");
    launcher.focus();
  };

  launcher.addEventListener("click", () => (panel.hidden ? open() : hide()));
  close.addEventListener("click", hide);
  shadow.addEventListener("keydown", (event) => {
    if (event instanceof KeyboardEvent && event.key === "Escape" && !panel.hidden) {
      event.preventDefault();
      hide();
    }
  });
  // The chat page in the cross-origin iframe speaks through messages (./widget-protocol.ts).
  window.addEventListener("message", (event) => {
    if (frame === null || event.source !== frame.contentWindow || event.origin !== origin) return;
    const data: unknown = event.data;
    if (isWidgetMessage(data, WIDGET_MESSAGE.close)) {
      if (!panel.hidden) hide();
    } else if (isWidgetMessage(data, WIDGET_MESSAGE.message)) {
      const shown = data as ShownMessage;
      // A reply the person has not seen: it came while the panel was closed.
      if (panel.hidden && !shown.history && shown.role === "agent") setUnread(unread + 1);
    }
  });
  shadow.append(launcher, panel, news);
  document.body.append(host);
}

function main(): void {
  const token = script?.dataset.launch?.trim();
  if (!script || !token) {
    console.warn("[agent-edge] widget.js needs a data-launch attribute; no chat widget added.");
    return;
  }
  let origin: string;
  try {
    origin = new URL(script.src).origin;
  } catch {
    console.warn("[agent-edge] widget.js could not tell its own origin; no chat widget added.");
    return;
  }
  // The tag may be pasted twice; one launcher per token is enough.
  const registry = window as WidgetWindow;
  registry.__agentEdgeWidgetTokens ??= new Set();
  if (registry.__agentEdgeWidgetTokens.has(token)) return;
  registry.__agentEdgeWidgetTokens.add(token);

  if (document.body) mount(token, origin);
  else document.addEventListener("DOMContentLoaded", () => mount(token, origin), { once: true });
}

main();
