/** The chat page's hashed bundles, by the build's manifest (docs/chat.md#assets-and-caching). */

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

/** The manifest once read; a failed read is not kept, so the next request tries again. */
let manifest: Promise<ChatAssets> | undefined;

/**
 * The hashed names of the chat page's script and styles, its rating's, and the widget's bundle.
 * @param assets the ASSETS binding; `origin` any origin (the binding serves by path)
 * @throws {Error} when ASSETS or a valid manifest is missing: the build did not run
 */
export function loadChatAssets(assets: Fetcher | undefined, origin: string): Promise<ChatAssets> {
  manifest ??= readManifest(assets, origin).catch((error: unknown) => {
    manifest = undefined;
    throw error;
  });
  return manifest;
}

async function readManifest(assets: Fetcher | undefined, origin: string): Promise<ChatAssets> {
  if (!assets) throw new Error("The ASSETS binding is missing; /chat cannot name its bundles.");
  const response = await assets.fetch(new URL(CHAT_ASSETS_MANIFEST, origin));
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(
      `${CHAT_ASSETS_MANIFEST} answered ${response.status}; run \`npm run build:client\`.`,
    );
  }
  const value = (await response.json()) as Partial<Record<keyof ChatAssets, unknown>>;
  const named = (path: unknown, ext: string): path is string =>
    typeof path === "string" && /^\/assets\/[\w-]+\.\w+$/.test(path) && path.endsWith(ext);
  if (
    !named(value.script, ".js") ||
    !named(value.style, ".css") ||
    !named(value.widget, ".js") ||
    !named(value.ratingScript, ".js") ||
    !named(value.ratingStyle, ".css")
  ) {
    throw new Error(`${CHAT_ASSETS_MANIFEST} is malformed; run \`npm run build:client\`.`);
  }
  return {
    script: value.script,
    style: value.style,
    widget: value.widget,
    ratingScript: value.ratingScript,
    ratingStyle: value.ratingStyle,
  };
}
