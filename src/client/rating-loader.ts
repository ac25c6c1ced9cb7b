// The rating after the end (docs/chat.md#rating), loaded only then: most conversations never
// need its form, so its script and styles stay out of the page's first load (the 15 KB budget of
// docs/chat.md#assets-and-caching). The page names their hashed paths in two meta tags; both load
// from this origin, which the page's CSP allows (`script-src 'self'`, `style-src 'self'`).

import type { RatingState } from "./rating-contract";

/** What the page says when the rating's files cannot be loaded (a network problem, a new deploy). */
export const RATING_FAILED = "The rating could not be loaded. Reload the page to rate this chat.";

/** Adds the file the page's `<meta name="agent-edge-rating-{kind}">` names; settles on its load. */
function attach(kind: "script" | "style"): Promise<unknown> {
  const path = document.querySelector<HTMLMetaElement>(`meta[name="agent-edge-rating-${kind}"]`);
  const element = document.createElement(kind === "style" ? "link" : "script");
  if (element instanceof HTMLLinkElement) {
    element.rel = "stylesheet";
    element.href = path?.content ?? "";
  } else element.src = path?.content ?? "";
  document.head.append(element);
  return new Promise((resolve, reject) => {
    element.onload = resolve;
    element.onerror = reject;
  });
}

/**
 * Once the conversation ended on a channel that asks for ratings (`state.enabled`): loads the
 * rating's styles and script and mounts the form (or the thanks) after `anchor`; when they cannot
 * be loaded, says so in a status message there instead. Call at most once.
 */
export function showRating(anchor: HTMLElement, token: string, state: RatingState): void {
  // In the tree before it says anything, so a screen reader announces a failure.
  const status = document.createElement("p");
  status.setAttribute("role", "status");
  anchor.after(status);
  // Mounted only after both arrived, so the form never shows without its styles.
  Promise.all([attach("style"), attach("script")])
    .then(() => {
      status.remove();
      (window.agentEdgeMountRating as NonNullable<Window["agentEdgeMountRating"]>)(
        anchor,
        token,
        state,
      );
    })
    .catch(() => {
      status.className = "notice problem";
      status.textContent = RATING_FAILED;
    });
}
