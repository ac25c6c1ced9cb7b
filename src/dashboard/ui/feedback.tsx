/** Loading and error states shared by the screens: announced to screen readers. */
import type { ReactNode } from "react";
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

/**
 * A list's states before its rows: loading (`what` is read out), its error, or `children` (what
 * an empty list says) once `count` is 0. `count` is undefined until the list has loaded.
 */
export function ListStatus(props: {
  query: { isPending: boolean; isError: boolean; error: unknown };
  what: string;
  count: number | undefined;
  children: ReactNode;
}) {
  if (props.query.isPending) return <Loading what={props.what} />;
  if (props.query.isError) return <ErrorNote error={props.query.error} />;
  return props.count === 0 ? <p className="muted">{props.children}</p> : null;
}

/** An ISO time as the reader's local date and time, or a dash. */
export function When({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span className="muted">—</span>;
  return <time dateTime={iso}>{new Date(iso).toLocaleString()}</time>;
}
