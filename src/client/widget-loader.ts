// `/widget.js`, the address customers embed (docs/chat.md#assets-and-caching): a few lines that
// browsers revalidate on every load, adding the widget's bundle under its hashed name (cached for
// a year, so a new release reaches every page at once without ever serving a stale bundle). The
// bundle gets the embed tag's data attributes and nonce, so it reads them as if it were the tag.

/** The bundle's path, e.g. `/assets/widget-7KQ2M3ZB.js`; set by scripts/build-client.mjs. */
declare const WIDGET_BUNDLE: string;

const tag = document.currentScript;
if (tag instanceof HTMLScriptElement) {
  const bundle = document.createElement("script");
  bundle.src = new URL(WIDGET_BUNDLE, tag.src).href;
  bundle.async = true;
  if (tag.nonce) bundle.nonce = tag.nonce;
  for (const { name, value } of tag.attributes) {
    if (name.startsWith("data-")) bundle.setAttribute(name, value);
  }
  (document.head ?? document.documentElement).append(bundle);
}
