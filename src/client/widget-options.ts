// The embed tag's options (docs/widget.md#options), read from its data attributes. A value that
// cannot be used is named in one console warning and replaced by its default: a typo in an
// option must not cost the customer the widget.
import type { Look } from "./widget-style";

/** The tag's options, checked. */
export type WidgetOptions = {
  look: Look;
  /** Open the chat as the page loads (`data-open="true"`). */
  open: boolean;
  /** Show an initiator's greeting beside the launcher (`data-teaser="true"`). */
  teaser: boolean;
  /** The launcher's visible text (`data-label`); none by default, the icon alone. */
  label: string;
};

const DEFAULT = { offset: 20, z: 2147483646 };
const BLUE: [number, number, number] = [29, 78, 216];

/**
 * The RGB channels (0–255) of a CSS colour as this browser reads it, or null when it is not one.
 * A canvas paints any syntax the browser knows (hex, rgb(), hsl(), oklch()…) into one pixel.
 */
function rgb(color: string): [number, number, number] | null {
  if (!CSS.supports("color", color)) return null;
  const context = document.createElement("canvas").getContext("2d");
  if (!context) return null;
  context.fillStyle = color;
  context.fillRect(0, 0, 1, 1);
  const [r = 0, g = 0, b = 0] = context.getImageData(0, 0, 1, 1).data;
  return [r, g, b];
}

/** Black or white, whichever contrasts more with `channels` (WCAG relative luminance). */
function textOn([r, g, b]: [number, number, number]): string {
  const linear = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  // Above ~0.18 black text has the better ratio, below it white.
  return luminance > 0.179 ? "#111827" : "#ffffff";
}

/** Reads the options from the tag's dataset; `warn` hears of each value it cannot use. */
export function readOptions(
  data: DOMStringMap,
  warn: (attribute: string, value: string, expected: string) => void,
): WidgetOptions {
  const flag = (name: "open" | "teaser"): boolean => {
    const value = data[name];
    if (value === undefined || value === "false") return false;
    if (value !== "true") warn(name, value, '"true" or "false"');
    return value === "true";
  };

  let side: Look["side"] = "right";
  if (data.position === "bottom-left") side = "left";
  else if (data.position !== undefined && data.position !== "bottom-right") {
    warn("position", data.position, '"bottom-right" or "bottom-left"');
  }

  // One number for both edges, or two: from the side, then from the bottom (CSS px).
  let [x, y] = [DEFAULT.offset, DEFAULT.offset];
  if (data.offset !== undefined) {
    const parts = data.offset.trim().split(/\s+/).map(Number);
    if (parts.length <= 2 && parts.every((n) => Number.isInteger(n) && n >= 0 && n <= 400)) {
      x = parts[0] ?? x;
      y = parts[1] ?? x;
    } else warn("offset", data.offset, "one or two whole numbers of pixels, 0 to 400");
  }

  let z = DEFAULT.z;
  if (data.zIndex !== undefined) {
    const n = Number(data.zIndex);
    // The panel sits one above the launcher, so the largest z-index is kept free for it.
    if (Number.isInteger(n) && n >= 0 && n < 2147483647) z = n;
    else warn("z-index", data.zIndex, "a whole number from 0 to 2147483646");
  }

  let channels = BLUE;
  if (data.accent !== undefined) {
    const parsed = rgb(data.accent);
    if (parsed) channels = parsed;
    else warn("accent", data.accent, "a CSS colour, such as #0f766e");
  }
  // Written as the channels the browser read, so nothing but a colour reaches the sheet.
  const accent = `rgb(${channels.join(" ")})`;

  return {
    look: { side, x, y, z, accent, onAccent: textOn(channels) },
    open: flag("open"),
    teaser: flag("teaser"),
    label: (data.label ?? "").trim().slice(0, 40),
  };
}
