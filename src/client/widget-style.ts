// The widget's styles (docs/widget.md#options), built for one widget's options. Values come from
// ./widget-options.ts, already checked (numbers, and a colour the browser parsed), and are written
// into the sheet rather than read from custom properties: those inherit through the shadow root's
// boundary, so a page could reach in with them.

/** Where and how the widget shows: `side` of the screen, offsets in CSS px, colours as CSS. */
export type Look = {
  side: "left" | "right";
  x: number;
  y: number;
  z: number;
  accent: string;
  /** Text and icon colour on the accent, the one of black and white with more contrast. */
  onAccent: string;
};

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';

/** The shadow root's sheet for `look`. */
export function widgetCss({ side, x, y, z, accent, onAccent }: Look): string {
  // `all: initial !important` on the host: the page's rules that match the host element lose
  // (an important declaration from inside a shadow tree beats the page's), and nothing inherits.
  return `
:host { all: initial !important; }
[hidden] { display: none !important; }
button { font: inherit; margin: 0; cursor: pointer; }
.launcher {
  position: fixed; ${side}: ${x}px; bottom: ${y}px; z-index: ${z};
  min-width: 56px; height: 56px; padding: 0 14px; border: 0; border-radius: 28px;
  display: flex; align-items: center; justify-content: center; gap: 8px;
  background: ${accent}; color: ${onAccent}; box-shadow: 0 4px 14px rgba(0, 0, 0, 0.28);
  font: 600 15px/1 ${FONT};
}
.launcher:hover { filter: brightness(0.92); }
.launcher svg { width: 28px; height: 28px; flex: none; }
.launcher:focus-visible, .teaser button:focus-visible {
  outline: 3px solid #111827; outline-offset: 2px; box-shadow: 0 0 0 2px #fff;
}
.badge {
  position: absolute; top: -4px; ${side === "right" ? "right" : "left"}: -4px;
  min-width: 22px; height: 22px; padding: 0 6px; box-sizing: border-box;
  border: 2px solid #fff; border-radius: 11px;
  background: #b42318; color: #fff; font: 700 12px/18px ${FONT}; text-align: center;
}
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.teaser {
  position: fixed; ${side}: ${x}px; bottom: ${y + 68}px; z-index: ${z};
  display: flex; align-items: flex-start; max-width: min(300px, calc(100vw - ${2 * x}px));
  background: #fff; color: #1a1a1a; border: 1px solid rgba(0, 0, 0, 0.15); border-radius: 12px;
  box-shadow: 0 8px 24px rgba(0, 0, 0, 0.22); font: 15px/1.4 ${FONT};
}
.teaser .say {
  flex: 1; padding: 12px 4px 12px 14px; border: 0; background: transparent; color: inherit;
  text-align: start; display: -webkit-box; -webkit-line-clamp: 4; -webkit-box-orient: vertical;
  overflow: hidden; border-radius: 12px; overflow-wrap: anywhere;
}
.teaser .dismiss {
  flex: none; width: 36px; height: 36px; margin: 4px; padding: 0; border: 0; border-radius: 8px;
  background: transparent; color: #545b64; font-size: 22px; line-height: 1;
}
.teaser .dismiss:hover { background: #eef1f4; }
.panel {
  position: fixed; ${side}: ${x}px; bottom: ${y + 68}px; z-index: ${z + 1};
  width: 380px; height: 560px; max-width: calc(100vw - ${2 * x}px);
  max-height: calc(100vh - ${y + 88}px);
  display: flex; flex-direction: column; overflow: hidden;
  background: #fff; border: 1px solid rgba(0, 0, 0, 0.15); border-radius: 12px;
  box-shadow: 0 12px 32px rgba(0, 0, 0, 0.25);
}
iframe { flex: 1; display: block; width: 100%; min-height: 0; border: 0; background: #fff; }
@media (prefers-color-scheme: dark) {
  .teaser { background: #23282f; color: #e8eaed; border-color: #343a42; }
  .teaser .dismiss { color: #aab1ba; }
  .teaser .dismiss:hover { background: #343a42; }
  .panel, iframe { background: #121417; border-color: #343a42; }
  .launcher:focus-visible, .teaser button:focus-visible { outline-color: #8ab4ff; box-shadow: 0 0 0 2px #121417; }
}
@media (max-width: 480px) {
  .panel {
    inset: 0; width: 100%; height: 100%; max-width: none; max-height: none;
    border: 0; border-radius: 0;
  }
}
@media (prefers-reduced-motion: no-preference) {
  .launcher { transition: transform 0.15s ease, filter 0.15s ease; }
  .launcher:hover { transform: scale(1.05); }
}
`;
}
