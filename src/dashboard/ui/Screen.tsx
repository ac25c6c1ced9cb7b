/**
 * A screen of the dashboard (docs/dashboard.md#screens): a section named by its heading, the
 * `<h1>` that takes focus after each navigation (App.tsx), where it sits (`breadcrumb`), a
 * sentence on what it is for (`intro`) and its main action's button (`action`, for Owners and
 * Admins: "New agent", "Invite a member").
 */
import { Fragment, type ReactNode, useId } from "react";
import { followLink } from "../router";

/** The screen `title`, with `children` below its heading, intro and action. */
export function Screen(props: {
  title: ReactNode;
  breadcrumb?: ReactNode;
  intro?: ReactNode;
  /** The main action's button, e.g. `canChange && { label: "New agent", onClick }`. */
  action?: { label: string; onClick: () => void } | false;
  className?: string;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className={props.className}>
      {props.breadcrumb ? <p className="breadcrumb">{props.breadcrumb}</p> : null}
      <h1 id={titleId} tabIndex={-1}>
        {props.title}
      </h1>
      {props.intro ? <p className="muted">{props.intro}</p> : null}
      {props.action ? (
        <button type="button" className="primary" onClick={props.action.onClick}>
          {props.action.label}
        </button>
      ) : null}
      {props.children}
    </section>
  );
}

/**
 * A breadcrumb of links to the screens above this one (docs/dashboard.md#screens), e.g.
 * "Workflows › Order events ›": `links` in order, the last `›` standing for this screen.
 */
export function Trail({ links }: { links: { href: string; label: ReactNode }[] }) {
  return (
    <>
      {links.map((link, index) => (
        <Fragment key={link.href}>
          {index > 0 ? " › " : null}
          <a href={link.href} onClick={followLink}>
            {link.label}
          </a>
        </Fragment>
      ))}{" "}
      ›
    </>
  );
}
