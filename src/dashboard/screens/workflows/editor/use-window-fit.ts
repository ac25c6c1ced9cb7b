/**
 * Fits the editor to the window (docs/dashboard.md#workflow-editor): the canvas and the panel end
 * above the window's bottom edge, so the zoom controls stay in view, however much sits above them.
 */
import { type RefObject, useLayoutEffect } from "react";

const MIN_HEIGHT = 352;
const GAP = 16;

/** Sets `--editor-height` on `ref`'s element: the room from its top to the window's bottom. */
export function useWindowFit(ref: RefObject<HTMLElement | null>): void {
  // After every render: problems above the canvas come and go and move it down.
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const top = element.getBoundingClientRect().top + window.scrollY;
      const room = Math.max(MIN_HEIGHT, Math.floor(window.innerHeight - top - GAP));
      element.style.setProperty("--editor-height", `${room}px`);
    };
    measure();
    window.addEventListener("resize", measure);
    return () => window.removeEventListener("resize", measure);
  });
}
