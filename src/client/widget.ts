// The widget's bundle (docs/widget.md), added by the `/widget.js` loader with the embed tag's data
// attributes: reads them, asks whether the channel allows this site (docs/widget.md#allowed-sites),
// and mounts the launcher (./widget-ui.ts) for the link's launch token.
import { readOptions } from "./widget-options";
import { mountWidget, type WidgetControl } from "./widget-ui";

const HOST_ID = "agent-edge-widget";

/** `window.AgentEdge`, the page's handle on the widget (docs/widget.md#javascript-api). */
type AgentEdgeApi = {
  open(): void;
  close(): void;
  /** Listens to an event ("message" only); returns the function that stops listening. */
  on(event: "message", listener: Parameters<WidgetControl["onMessage"]>[0]): () => void;
};

type WidgetWindow = Window & {
  __agentEdgeWidgetTokens?: Set<string>;
  __agentEdgeTokenError?: boolean;
  AgentEdge?: AgentEdgeApi;
};

/** A launch token's shape (base64url, 43 characters today); anything else cannot open a chat. */
const TOKEN_SHAPE = /^[\w-]{32,128}$/;
/** A widget channel's id. */
const CHANNEL_SHAPE = /^ch_\w{22}$/;

/**
 * Says once per page, as an error, why there is no widget: the tag without a usable token, such
 * as the channel's snippet pasted with its placeholder, or without its channel
 * (docs/widget.md#embedding).
 */
function tagError(what: string): void {
  const registry = window as WidgetWindow;
  if (registry.__agentEdgeTokenError) return;
  registry.__agentEdgeTokenError = true;
  console.error(
    `[agent-edge] No chat widget: the widget.js tag ${what}. Your server gets a token for each person from POST /v1/widget/launches (with your widget key) and puts it in data-launch; the answer's embedHtml is the whole tag with it.`,
  );
}

// Captured at top level: `document.currentScript` is only set while this script first runs.
const script =
  document.currentScript instanceof HTMLScriptElement
    ? document.currentScript
    : document.querySelector<HTMLScriptElement>('script[src$="/widget.js"][data-launch]');

function main(): void {
  if (!script) return;
  const { launch, channelId: channel = "" } = script.dataset;
  const token = launch?.trim();
  if (!token || !TOKEN_SHAPE.test(token)) {
    tagError(
      launch === undefined
        ? "has no data-launch attribute"
        : `has data-launch="${launch}", not a launch token`,
    );
    return;
  }
  if (!CHANNEL_SHAPE.test(channel)) {
    tagError(`has data-channel-id="${channel}", not a widget channel's id`);
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

  const mount = (): void => {
    // A custom tag name keeps the page's element selectors (div, aside…) off the host.
    const host = document.createElement("agent-edge-widget");
    host.id = document.getElementById(HOST_ID) ? `${HOST_ID}-${Date.now()}` : HOST_ID;
    document.body.append(host);
    const options = readOptions(script.dataset, (name, value, expected) =>
      console.warn(
        `[agent-edge] widget.js: data-${name}="${value}" is not ${expected}; the default is used.`,
      ),
    );
    const widget = mountWidget(host, { token, origin, channel, ...options });
    // One handle per page: the first widget's (a page holds one in practice).
    registry.AgentEdge ??= {
      open: widget.open,
      close: widget.close,
      on(event, listener) {
        if (event !== "message") throw new TypeError(`AgentEdge.on: no event "${event}"`);
        return widget.onMessage(listener);
      },
    };
    window.dispatchEvent(new Event("agent-edge:ready"));
    if (options.open) widget.open();
  };
  // The channel's allowed sites: a page it does not allow gets no launcher rather than a frame
  // the browser refuses. When the answer cannot be had (offline, the page's CSP), the frame's
  // own policy still decides.
  const here = location.origin;
  fetch(`${origin}/v1/chat/channels/${channel}/embedding?origin=${encodeURIComponent(here)}`, {
    credentials: "omit",
    referrerPolicy: "no-referrer",
  })
    .then((response) =>
      response.status === 404 ? "gone" : response.ok ? response.json() : { allowed: true },
    )
    .catch(() => ({ allowed: true }))
    .then((answer: { allowed?: unknown } | "gone") => {
      if (answer === "gone") console.error(`[agent-edge] No chat widget: no channel ${channel}.`);
      else if (answer.allowed === false) {
        console.warn(
          `[agent-edge] No chat widget: channel ${channel} does not allow pages of ${here}; add this site to its allowedOrigins.`,
        );
      } else if (document.body) mount();
      else document.addEventListener("DOMContentLoaded", mount, { once: true });
    });
}

main();
