/**
 * A form's problems on its fields (docs/dashboard.md#forms-and-problems): what the browser's check
 * (the API's own zod schema) or the API refused, each in plain words (problem-text.ts) under the
 * field it names, the rest at the top of the form; a refused submit moves focus to the first
 * invalid field, so the person lands where the fix is.
 */
import { type RefObject, useEffect, useRef, useState } from "react";
import { ApiFailure } from "../api";
import { Problems } from "./feedback";
import {
  type FieldLabels,
  type IssueLike,
  type PlacedProblem,
  placeDetails,
  placeIssues,
  validityText,
} from "./problem-text";

/** The first enabled control marked invalid (`aria-invalid`) inside `scope`, if any. */
export function firstInvalid(scope: Element | null): HTMLElement | null {
  return scope?.querySelector<HTMLElement>('[aria-invalid="true"]:not(:disabled)') ?? null;
}

/**
 * Focuses the first control marked invalid in the form around `from`, else `from` itself (the
 * form's list of problems naming no field).
 */
export function focusFirstInvalid(from: HTMLElement | null): void {
  const scope = from?.closest("form") ?? from?.parentElement ?? null;
  focusInView(firstInvalid(scope) ?? from);
}

/**
 * Focuses `control` with it and the problem under it in the middle of its scrolling box: a plain
 * focus scrolls only as far as the control, leaving its problem below the edge.
 */
export function focusInView(control: HTMLElement | null): void {
  control?.focus({ preventScroll: true });
  control?.scrollIntoView({ block: "center" });
}

/**
 * Calls `focusFirstInvalid(ref.current)` after every render in which `refusals` grew: bump it when
 * a submit is refused, so focus moves once the problems are on the page.
 */
export function useFocusOnRefusal(ref: RefObject<HTMLElement | null>, refusals: number): void {
  useEffect(() => {
    if (refusals > 0) focusFirstInvalid(ref.current);
  }, [refusals, ref]);
}

/**
 * The problems of a form whose fields `labels` names (by path without list indexes: `name`,
 * `parameters.name`): `at(path)` those of one field (`parameters.1.name`), `top` shows those naming no
 * field of the form, `refuseIssues`/`refuseError` place the browser's or the API's and move focus,
 * `shown(error)` the mutation's error still to show in the foot (none once placed on fields).
 */
export function useFormProblems(labels: FieldLabels) {
  const [problems, setProblems] = useState<PlacedProblem[]>([]);
  const [refusals, setRefusals] = useState(0);
  const placedError = useRef<unknown>(null);
  const top = useRef<HTMLDivElement>(null);
  useFocusOnRefusal(top, refusals);
  // None: nothing refused, the problems shown so far are cleared and focus stays.
  const refuse = (list: PlacedProblem[]) => {
    setProblems(list);
    if (list.length > 0) setRefusals((count) => count + 1);
  };
  // The browser's own checks (`required`, `type="url"`, …) refused the submit: their problems
  // are said like the API's, under their fields, instead of the browser's bubble.
  const labelsNow = useRef(labels);
  labelsNow.current = labels;
  useEffect(() => {
    const form = top.current?.closest("form");
    if (!form) return;
    let found: PlacedProblem[] = [];
    const invalid = (event: Event) => {
      const control = event.target as HTMLInputElement;
      event.preventDefault();
      const field = control.name;
      const label = labelsNow.current[field] ?? {
        label: control.labels?.[0]?.textContent?.replace(/\s*\(optional\)$/, "") ?? field,
      };
      if (found.length === 0) queueMicrotask(() => refuse(found.splice(0)));
      found.push({ field, path: field, message: validityText(control, label) });
    };
    form.addEventListener("invalid", invalid, true);
    return () => {
      found = [];
      form.removeEventListener("invalid", invalid, true);
    };
  });
  const general = problems.filter((problem) => !Object.hasOwn(labels, problem.field));
  return {
    problems,
    /** Refuses the submit with problems the form found itself (already in plain words). */
    refuse,
    /** The messages of the field at `path` and inside it (dotted, indexes in: `parameters.1.name`). */
    at: (path: string) =>
      problems
        .filter((p) => p.path === path || p.path.startsWith(`${path}.`))
        .map((p) => p.message),
    /** Refuses the submit with zod's issues (a failed `safeParse`); none: clears. */
    refuseIssues: (issues: readonly IssueLike[]) => refuse(placeIssues(issues, labels)),
    /** Places an API refusal's field details; other errors stay for the form's foot. */
    refuseError: (error: unknown) => {
      const details = error instanceof ApiFailure ? error.details : [];
      if (!details.some((detail) => detail.field)) return;
      placedError.current = error;
      refuse(placeDetails(details, labels));
    },
    clear: () => setProblems([]),
    /** The mutation's error unless its details stand on the fields. */
    shown: (error: unknown) => (error && error === placedError.current ? null : error),
    /** The problems naming no field of the form: put it first in the form (focus falls back to it). */
    top: (
      <div ref={top} tabIndex={-1} className="form-problems">
        <Problems problems={general.map((problem) => problem.message)} />
      </div>
    ),
  };
}
