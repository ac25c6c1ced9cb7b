/**
 * The small HTML pages of signing in by link (docs/dashboard.md#sign-in): the sign-in page, whose
 * script posts a link's token from the URL fragment; the page that asks to continue (so a mail
 * scanner that opens links uses nothing up); and the answers to a used or expired link and to
 * signing out. Only the sign-in page has a script (same-origin); a strict Content-Security-Policy.
 */
import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";

/**
 * The pages' Content-Security-Policy, as `secureHeaders` directives: a same-origin form, and the
 * passkey button's same-origin script and calls.
 */
export const SIGN_IN_CSP = {
  defaultSrc: ["'none'"],
  scriptSrc: ["'self'"],
  connectSrc: ["'self'"],
  styleSrc: ["'unsafe-inline'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
};

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:15vh auto;padding:0 1rem;color:#1f2328;background:#fff}
h1{font-size:1.4rem}button{font:inherit;padding:.6rem 1.2rem;border-radius:.5rem;border:0;background:#0b57d0;color:#fff;cursor:pointer}
button:focus-visible{outline:3px solid #0b57d0;outline-offset:2px}
@media (prefers-color-scheme:dark){body{background:#0d1117;color:#e6edf3}button{background:#4c8df6;color:#0d1117}}`;

function page(title: string, body: HtmlEscapedString | Promise<HtmlEscapedString>) {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${title} · agent-edge</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

/**
 * Whom a person without a usable link asks, in the dashboard's terms (docs/dashboard.md#sign-in):
 * the Owner or an Admin makes one on the Members screen, with the **Sign-in link** button on the
 * person's row. The API call is for the people who build on it, not for someone locked out.
 */
const WHOM_TO_ASK = html`<p>To get a new link, ask your workspace's Owner or an Admin: they can make
one for you in the dashboard, under <strong>Members</strong>, with the <strong>Sign-in link</strong>
button on your row.</p>`;

/** Asks the person to continue signing in as the link's member; the button posts the token. */
export function continuePage(
  token: string,
  who: { memberName: string; email: string; workspaceName: string },
) {
  return page(
    "Sign in",
    html`<h1>Sign in to ${who.workspaceName}</h1>
<p>You are signing in as <strong>${who.memberName}</strong> (${who.email}).</p>
<form method="post" action="/sign-in"><input type="hidden" name="token" value="${token}">
<button type="submit">Continue</button></form>
<p><small>The link works once, for 15 minutes.</small></p>`,
  );
}

/** A link that is unknown, used, expired, or whose member was removed. */
export function unusableLinkPage() {
  return page(
    "Link not valid",
    html`<h1>This sign-in link cannot be used</h1>
<p>It was used already, has expired (links last 15 minutes) or was never valid.</p>
${WHOM_TO_ASK}`,
  );
}

/**
 * Where a browser without a session lands, and where a sign-in link opens
 * (`/sign-in#token=si_…`): its script takes the token out of the address bar and posts it with the
 * `link` form, to `POST /sign-in/continue`.
 */
export function signInPage() {
  return page(
    "Sign in",
    html`<h1>Sign in to agent-edge</h1>
<form id="link" method="post" action="/sign-in/continue" hidden><input type="hidden" name="token"></form>
<noscript><p>Signing in needs JavaScript.</p></noscript>
<p><button type="button" id="passkey" hidden>Sign in with a passkey</button></p>
<p id="passkey-status" role="status"></p>
<p>Or sign in with a one-time link, which works once, for 15 minutes.</p>
${WHOM_TO_ASK}
<script src="/sign-in.js" defer></script>`,
  );
}

/** After signing out in this browser. */
export function signedOutPage() {
  return page("Signed out", html`<h1>You are signed out</h1><p>You can close this tab.</p>`);
}
