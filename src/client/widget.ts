// The widget's bundle (docs/widget.md), added by the `/widget.js` loader with the embed tag's data
// attributes: reads them, and mounts the launcher (./widget-ui.ts) for the link's launch token.
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

type WidgetWindow = Window & { __agentEdgeWidgetTokens?: Set<string>; AgentEdge?: AgentEdgeApi };

// Captured at top level: `document.currentScript` is only set while this script first runs.
const script =
  document.currentScript instanceof HTMLScriptElement
    ? document.currentScript
    : document.querySelector<HTMLScriptElement>('script[src$="/widget.js"][data-launch]');

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
    const widget = mountWidget(host, { token, origin, ...options });
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
  if (document.body) mount();
  else document.addEventListener("DOMContentLoaded", mount, { once: true });
}

main();
