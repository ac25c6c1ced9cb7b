// The widget on the customer's page (docs/widget.md): a launcher that opens the hosted chat page in
// an iframe, an unread badge, and the optional teaser, all in a shadow root so that the page's CSS
// and ours cannot affect each other. The chat page talks back through ./widget-protocol.ts.

import { isWidgetMessage, type ShownMessage, WIDGET_MESSAGE } from "./widget-protocol";
import { type Look, widgetCss } from "./widget-style";

const SVG_NS = "http://www.w3.org/2000/svg";
const ICON =
  "M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2zm3 6a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm5 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm5 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3z";

/** What one widget is given: its token, the Worker's origin, the channel and the tag's options. */
export type WidgetSetup = {
  token: string;
  origin: string;
  /** The widget channel (`data-channel-id`), whose embedded chat the frame shows. */
  channel: string;
  look: Look;
  /** Show the agent's first message beside the launcher (`data-teaser="true"`). */
  teaser: boolean;
  /** The launcher's visible text; empty for the icon alone, named "Open chat". */
  label: string;
};

/** What the page's script may do with a mounted widget (`window.AgentEdge`). */
export type WidgetControl = {
  open(): void;
  close(): void;
  /** Calls `listener` with each message shown while the page is open (not the earlier history). */
  onMessage(listener: (message: Omit<ShownMessage, "type" | "history">) => void): () => void;
};

/** An element of `tag` with `className` and attributes, built with DOM calls (Trusted Types). */
function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  attributes: Record<string, string> = {},
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

function chatIcon(): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const path = document.createElementNS(SVG_NS, "path");
  path.setAttribute("fill", "currentColor");
  path.setAttribute("d", ICON);
  svg.append(path);
  return svg;
}

/** A short, irreversible name for the link, so storage never holds the token (FNV-1a, 32 bit). */
function linkKey(token: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < token.length; i++) hash = Math.imul(hash ^ token.charCodeAt(i), 0x01000193);
  return `agent-edge:teaser:${(hash >>> 0).toString(36)}`;
}

/** Storage may be refused (privacy settings, sandboxed frames): then nothing is remembered. */
function remembered(key: string, set = false): boolean {
  try {
    if (set) localStorage.setItem(key, "1");
    return localStorage.getItem(key) === "1";
  } catch {
    return false;
  }
}

/** Styles the shadow root; a constructed sheet is preferred because page CSPs cannot block it. */
function addStyles(shadow: ShadowRoot, css: string): void {
  if ("adoptedStyleSheets" in shadow && "replaceSync" in CSSStyleSheet.prototype) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    shadow.adoptedStyleSheets = [sheet];
  } else shadow.append(Object.assign(document.createElement("style"), { textContent: css }));
}

/**
 * Builds the launcher, teaser and panel for one link and appends them to the page.
 * @param host the custom element that holds the shadow root, already in the page
 */
export function mountWidget(host: HTMLElement, setup: WidgetSetup): WidgetControl {
  const { token, origin } = setup;
  const shadow = host.attachShadow({ mode: "open" });
  addStyles(shadow, widgetCss(setup.look));

  const launcher = el("button", "launcher", {
    type: "button",
    id: "agent-edge-launcher",
    "aria-expanded": "false",
    "aria-controls": "agent-edge-panel",
  });
  const badge = el("span", "badge", { "aria-hidden": "true" });
  badge.hidden = true;
  launcher.append(chatIcon());
  if (setup.label) launcher.append(Object.assign(el("span", ""), { textContent: setup.label }));
  launcher.append(badge);
  // The launcher's name carries the count; this polite region says a reply came in, once.
  const news = el("span", "sr", { role: "status" });

  const teaser = el("div", "teaser", { id: "agent-edge-teaser" });
  const say = el("button", "say", { type: "button" });
  const dismiss = el("button", "dismiss", { type: "button", "aria-label": "Dismiss message" });
  dismiss.append(Object.assign(el("span", "", { "aria-hidden": "true" }), { textContent: "×" }));
  teaser.append(say, dismiss);
  teaser.hidden = true;
  const teaserKey = linkKey(token);

  const panel = el("div", "panel", {
    id: "agent-edge-panel",
    role: "dialog",
    "aria-label": "Chat",
  });
  panel.hidden = true;
  // One header: the chat's own, which holds the close button inside the iframe (./embed.ts).
  // On a phone the panel fills the screen and is modal (docs/widget.md#on-a-phone).
  const phone = matchMedia("(max-width: 480px)");
  /** Held for a page whose `<html>` had no style attribute at all. */
  const NO_STYLE = "\0";
  /** The page's own inline overflow while the panel holds the screen; null when not held. */
  let heldOverflow: string | null = null;

  let frame: HTMLIFrameElement | null = null;
  /**
   * Whether the chat page is in the frame: until then it holds an empty document of this page's
   * origin, and a message to it for the chat's origin is dropped with a console warning.
   */
  let loaded = false;
  let unread = 0;
  const listeners = new Set<Parameters<WidgetControl["onMessage"]>[0]>();

  const setUnread = (count: number): void => {
    unread = count;
    badge.hidden = count === 0;
    badge.textContent = count > 9 ? "9+" : count ? String(count) : "";
    const label = count === 0 ? "" : `, ${count} unread message${count === 1 ? "" : "s"}`;
    // The visible label starts the name, so speech input finds the button by what it shows.
    launcher.setAttribute("aria-label", `${setup.label || "Open chat"}${label}`);
    news.textContent = count === 0 ? "" : `New message in the chat${label}`;
  };
  setUnread(0);

  /** Loads the chat page once; pages where nobody chats (and no teaser) never load it. */
  const load = (): HTMLIFrameElement => {
    if (!frame) {
      frame = el("iframe", "", { title: "Chat" });
      frame.referrerPolicy = "no-referrer";
      frame.src = `${origin}/chat/embed/${setup.channel}#launch=${encodeURIComponent(token)}`;
      frame.addEventListener("load", () => {
        loaded = true;
        fitScreen();
      });
      panel.append(frame);
    }
    return frame;
  };

  const hideTeaser = (remember: boolean): void => {
    if (remember) remembered(teaserKey, true);
    if (!teaser.hidden && teaser.contains(shadow.activeElement)) launcher.focus();
    teaser.hidden = true;
  };

  /** Makes the panel modal (and the page still behind it) when it is open on a phone's screen. */
  const fitScreen = (): void => {
    const modal = phone.matches && !panel.hidden;
    if (modal) panel.setAttribute("aria-modal", "true");
    else panel.removeAttribute("aria-modal");
    const root = document.documentElement;
    if (modal && heldOverflow === null) {
      heldOverflow = root.getAttribute("style") === null ? NO_STYLE : root.style.overflow;
      root.style.overflow = "hidden";
    } else if (!modal && heldOverflow !== null) {
      // Left as the page had it, down to no style attribute at all. Reading the attribute makes
      // Chromium write back the CSSOM change now; removed before that, it came back empty.
      root.style.overflow = heldOverflow === NO_STYLE ? "" : heldOverflow;
      if (heldOverflow === NO_STYLE && root.getAttribute("style") === "") {
        root.removeAttribute("style");
      }
      heldOverflow = null;
    }
    // The chat keeps Tab inside itself while it is modal; it cannot be reached from here. Sent
    // to the chat's origin only, once it is there; its load sends the state of that moment.
    if (loaded) frame?.contentWindow?.postMessage({ type: WIDGET_MESSAGE.modal, modal }, origin);
  };
  phone.addEventListener("change", fitScreen);

  const open = (): void => {
    const chat = load();
    // The greeting is read in the chat now: the teaser is not shown for this link again.
    hideTeaser(true);
    panel.hidden = false;
    launcher.setAttribute("aria-expanded", "true");
    setUnread(0);
    fitScreen();
    chat.focus();
  };

  const hide = (): void => {
    if (panel.hidden) return;
    panel.hidden = true;
    launcher.setAttribute("aria-expanded", "false");
    fitScreen();
    launcher.focus();
  };

  /** Whether the chat has shown any message yet: the first one may be the teaser's greeting. */
  let heardAny = false;
  const heard = (shown: ShownMessage): void => {
    if (shown.role === "person") hideTeaser(false);
    // The conversation's first message, the agent's: an initiator's greeting.
    else if (setup.teaser && shown.history && !heardAny && panel.hidden) {
      if (!remembered(teaserKey)) {
        say.textContent = shown.text;
        teaser.hidden = false;
        news.textContent = `Message in the chat: ${shown.text}`;
      }
    }
    heardAny = true;
    if (shown.history) return;
    // A reply the person has not seen: it came while the panel was closed.
    if (panel.hidden && shown.role === "agent") setUnread(unread + 1);
    const { role, text, at } = shown;
    for (const listener of listeners) {
      // A failing listener is the page's bug: reported, and the others still hear.
      try {
        listener({ role, text, at });
      } catch (error) {
        setTimeout(() => {
          throw error;
        });
      }
    }
  };

  launcher.addEventListener("click", () => (panel.hidden ? open() : hide()));
  say.addEventListener("click", open);
  dismiss.addEventListener("click", () => hideTeaser(true));
  shadow.addEventListener("keydown", (event) => {
    if (!(event instanceof KeyboardEvent) || event.key !== "Escape") return;
    if (!panel.hidden) hide();
    else if (!teaser.hidden) hideTeaser(true);
    else return;
    event.preventDefault();
  });
  window.addEventListener("message", (event) => {
    if (frame === null || event.source !== frame.contentWindow || event.origin !== origin) return;
    const data: unknown = event.data;
    if (isWidgetMessage(data, WIDGET_MESSAGE.close)) hide();
    else if (isWidgetMessage(data, WIDGET_MESSAGE.message)) heard(data as ShownMessage);
  });

  shadow.append(teaser, launcher, panel, news);
  // The teaser needs the greeting, which comes with the conversation: open it in the background.
  if (setup.teaser && !remembered(teaserKey)) load();
  return {
    open,
    close: hide,
    onMessage(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
