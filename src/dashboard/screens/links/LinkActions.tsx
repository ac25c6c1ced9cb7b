/**
 * What Owners and Admins can do to a link (docs/dashboard.md#screens): end its conversation, or
 * revoke it, each after confirming in a dialog. Only the actions that would change something are
 * offered; members never see them (the API refuses them anyway).
 */
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, type Schemas, unwrap } from "../../api";
import { ConfirmDialog } from "../../ui/ConfirmDialog";
import { useDialogMutation } from "../../ui/dialog-mutation";

type Action = "end" | "revoke";

const COPY: Record<Action, { title: string; confirm: string; body: string; done: string }> = {
  end: {
    title: "End this conversation?",
    confirm: "End conversation",
    body: "The person's chat closes at once. They can still read it until the link expires, but nobody can write in it any more.",
    done: "The conversation was ended.",
  },
  revoke: {
    title: "Revoke this link?",
    confirm: "Revoke link",
    body: "The link stops working at once: an open chat closes, and the person can no longer open or read the conversation. This cannot be undone.",
    done: "The link was revoked.",
  },
};

/**
 * The End conversation and Revoke link buttons with their confirm dialogs; `onDone` gets the
 * sentence that says what happened, to announce (docs/dashboard.md#screens).
 */
export function LinkActions(props: {
  link: Schemas["LinkDetail"];
  onDone: (note: string) => void;
}) {
  const { link } = props;
  const queries = useQueryClient();
  const [asking, setAsking] = useState(false);
  // Kept once the dialog closes, so its title never goes blank while it closes.
  const [action, setAction] = useState<Action>("end");
  const { mutation: act, close } = useDialogMutation(
    {
      mutationFn: (which: Action) => {
        const params = { params: { path: { id: link.id } } };
        return which === "end"
          ? unwrap(api.POST("/v1/manage/links/{id}/end", params))
          : unwrap(api.DELETE("/v1/manage/links/{id}", params));
      },
      onSuccess: async (_, which) => {
        close();
        void queries.invalidateQueries({ queryKey: ["links"] });
        // The page shows the new status before the news is announced.
        await queries.invalidateQueries({ queryKey: ["link", link.id] });
        props.onDone(COPY[which].done);
      },
    },
    () => setAsking(false),
  );
  const ask = (which: Action) => {
    setAction(which);
    setAsking(true);
  };
  const canEnd = link.status === "active";
  const canRevoke = link.status !== "revoked" && link.status !== "expired";
  if (!canEnd && !canRevoke) return null;
  const copy = COPY[action];
  return (
    <div className="actions">
      {canEnd ? (
        <button type="button" onClick={() => ask("end")}>
          End conversation
        </button>
      ) : null}
      {canRevoke ? (
        <button type="button" className="danger" onClick={() => ask("revoke")}>
          Revoke link
        </button>
      ) : null}
      <ConfirmDialog
        subject={asking ? action : null}
        title={copy.title}
        confirmLabel={copy.confirm}
        mutation={act}
        onClose={close}
      >
        <p>{copy.body}</p>
      </ConfirmDialog>
    </div>
  );
}
