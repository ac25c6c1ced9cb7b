/** Loading and error states shared by the screens: announced to screen readers. */
import { ApiFailure } from "../api";

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status">
      Loading {what}…
    </p>
  );
}

export function ErrorNote({ error }: { error: unknown }) {
  const message =
    error instanceof ApiFailure
      ? `${error.message} (${error.code})`
      : "Something went wrong; try again.";
  return (
    <p className="error" role="alert">
      {message}
    </p>
  );
}

/** An ISO time as the reader's local date and time, or a dash. */
export function When({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span className="muted">—</span>;
  return <time dateTime={iso}>{new Date(iso).toLocaleString()}</time>;
}
