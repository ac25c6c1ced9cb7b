/**
 * Loading and error states shared by the screens (docs/dashboard.md#screens): announced to screen
 * readers.
 */
import type { ReactNode } from "react";
import { ApiFailure } from "../api";
import { detailText } from "./problem-text";

/** "Loading `what`…", as a status. */
export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status">
      Loading {what}…
    </p>
  );
}

/**
 * An API error as its message and code, and its details in plain words (problem-text.ts) when a
 * form has not placed them on its fields; anything else as "Something went wrong".
 */
export function ErrorNote({ error }: { error: unknown }) {
  const message =
    error instanceof ApiFailure
      ? `${error.message} (${error.code})`
      : "Something went wrong; try again.";
  const details = error instanceof ApiFailure ? error.details.map((d) => detailText(d)) : [];
  return (
    <div className="error" role="alert">
      <p>{message}</p>
      {details.length > 0 ? (
        <ul>
          {details.map((detail) => (
            <li key={detail}>{detail}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** What is wrong with a form before it is sent, a line each, announced; nothing while none. */
export function Problems(props: { problems: readonly string[]; id?: string }) {
  if (props.problems.length === 0) return null;
  return (
    <div id={props.id} className="error" role="alert">
      <ul>
        {props.problems.map((problem) => (
          <li key={problem}>{problem}</li>
        ))}
      </ul>
    </div>
  );
}

/** What the states below read of a TanStack query. */
export type QueryState = { isPending: boolean; isError: boolean; error: unknown };

/** A query's state before its data: loading (`what` is read out) or its error; else nothing. */
export function QueryStatus(props: { query: QueryState; what: string }) {
  if (props.query.isPending) return <Loading what={props.what} />;
  if (props.query.isError) return <ErrorNote error={props.query.error} />;
  return null;
}

/**
 * A list's states before its rows: loading (`what` is read out), its error, or `children` (what
 * an empty list says, if anything) once `count` is 0. `count` is undefined until it has loaded.
 */
export function ListStatus(props: {
  query: QueryState;
  what: string;
  count: number | undefined;
  children?: ReactNode;
}) {
  if (props.query.isPending || props.query.isError) return <QueryStatus {...props} />;
  return props.count === 0 && props.children ? <p className="muted">{props.children}</p> : null;
}

/** An ISO time as the reader's local date and time, or a dash. */
export function When({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span className="muted">—</span>;
  return <time dateTime={iso}>{new Date(iso).toLocaleString()}</time>;
}
