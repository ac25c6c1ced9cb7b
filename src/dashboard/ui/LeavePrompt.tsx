/**
 * The question before unsaved work is left (docs/dashboard.md#leaving-unsaved-work): "Leave
 * without saving?", with Stay (focused, and what Escape does) and Leave. Mounted once by the
 * shell; it opens when the router holds a navigation back (ui/leave-guard.ts).
 */
import { Dialog } from "./Dialog";
import { DialogActions } from "./DialogActions";
import { useLeaveQuestion } from "./leave-guard";

/** The dialog, open while a navigation waits for the person's answer. */
export function LeavePrompt() {
  const question = useLeaveQuestion();
  return (
    <Dialog open={question.asking} title="Leave without saving?" onClose={question.stay}>
      <div className="stack">
        <p>Your changes on this page are not saved. If you leave, they are lost.</p>
        <DialogActions
          confirm="Leave"
          onConfirm={question.leave}
          tone="danger"
          onClose={question.stay}
          closeLabel="Stay"
          focusClose
        />
      </div>
    </Dialog>
  );
}
