/** The chat page's hashed bundles, by the build's manifest (docs/chat.md#assets-and-caching). */

import { manifestReader } from "../platform/assets-manifest";

/** Where the build writes the manifest, relative to the assets root. */
export const CHAT_ASSETS_MANIFEST = "/chat-assets.json";

/**
 * The manifest: site paths such as `/assets/chat-TNI73S2F.js`; the rating's script and styles are
 * loaded by the page only after the conversation ends (docs/chat.md#rating).
 */
export type ChatAssets = {
  script: string;
  style: string;
  widget: string;
  ratingScript: string;
  ratingStyle: string;
};

/** A bundle's site path, `/assets/<name>-<hash><ext>`. */
const named = (path: unknown, ext: string): path is string =>
  typeof path === "string" && /^\/assets\/[\w-]+\.\w+$/.test(path) && path.endsWith(ext);

/**
 * The hashed names of the chat page's script and styles, its rating's, and the widget's bundle:
 * `(assets, origin)`, the ASSETS binding and any origin (the binding serves by path).
 * @throws {Error} when ASSETS or a valid manifest is missing: the build did not run
 */
export const loadChatAssets = manifestReader(CHAT_ASSETS_MANIFEST, "/chat", (value) => {
  const { script, style, widget, ratingScript, ratingStyle } = value;
  if (!named(script, ".js") || !named(style, ".css") || !named(widget, ".js")) return null;
  if (!named(ratingScript, ".js") || !named(ratingStyle, ".css")) return null;
  return { script, style, widget, ratingScript, ratingStyle } satisfies ChatAssets;
});
