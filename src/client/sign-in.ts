/**
 * The sign-in page's passkey button (docs/dashboard.md#passkeys): asks the browser for any passkey
 * of this site (WebAuthn through `@simplewebauthn/browser`), has the Worker verify it, and goes on
 * to the dashboard. Without WebAuthn the button stays hidden.
 */
import { browserSupportsWebAuthn, startAuthentication } from "@simplewebauthn/browser";

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
