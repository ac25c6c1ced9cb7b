/**
 * The sign-in page's script. A sign-in link (`/sign-in#token=si_…`, docs/dashboard.md#sign-in)
 * carries its token in the fragment, which no request and so no request log holds: the token is
 * taken out of the address bar (and so out of history) and posted with the page's `link` form,
 * whose answer asks the person to continue. And the passkey button (docs/dashboard.md#passkeys):
 * asks the browser for any passkey of this site (WebAuthn through `@simplewebauthn/browser`), has
 * the Worker verify it, and goes on to the dashboard. Without WebAuthn the button stays hidden.
 */
import { browserSupportsWebAuthn, startAuthentication } from "@simplewebauthn/browser";

/** Posts the token of a sign-in link in the fragment, after taking it out of the address bar. */
function postLinkToken(): void {
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (!fragment.has("token")) return;
  history.replaceState(null, "", location.pathname + location.search);
  const token = fragment.get("token")?.trim() ?? "";
  const field = document.querySelector<HTMLInputElement>("#link input[name=token]");
  if (!token || !field?.form) return;
  field.value = token;
  field.form.submit();
}

postLinkToken();
// A link opened in a tab already showing this page changes only the fragment: no new load.
window.addEventListener("hashchange", postLinkToken);

const button = document.querySelector<HTMLButtonElement>("#passkey");
const status = document.querySelector<HTMLElement>("#passkey-status");

async function post<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json", "x-requested-with": "agent-edge-sign-in" },
    body: JSON.stringify(body ?? {}),
  });
  const answer = (await response.json()) as T & { error?: { message?: string } };
  if (!response.ok) throw new Error(answer.error?.message ?? "Signing in failed.");
  return answer;
}

async function signIn(): Promise<void> {
  if (!button || !status) return;
  button.disabled = true;
  status.textContent = "Waiting for your passkey…";
  try {
    const { challengeId, options } = await post<{ challengeId: string; options: never }>(
      "/sign-in/passkey/options",
    );
    const response = await startAuthentication({ optionsJSON: options });
    const { location } = await post<{ location: string }>("/sign-in/passkey", {
      challengeId,
      response,
    });
    window.location.assign(location);
  } catch (error) {
    status.textContent =
      error instanceof Error && error.name !== "NotAllowedError"
        ? error.message
        : "No passkey was used. Try again, or sign in with a link.";
    button.disabled = false;
  }
}

if (button && browserSupportsWebAuthn()) {
  button.hidden = false;
  button.addEventListener("click", () => void signIn());
}
