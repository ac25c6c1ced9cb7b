/**
 * The mutation a dialog runs (docs/dashboard.md#screens): create a key, rotate a secret, remove a
 * member. Closing forgets its answer and error, so the dialog opens fresh next time; the answer
 * shown once (a key, a secret, a sign-in link) is the mutation's own data, not a copy of it.
 */
import {
  type QueryKey,
  type UseMutationOptions,
  useMutation,
  useQueryClient,
} from "@tanstack/react-query";

/** The problems of the dialog's form (`useFormProblems`), as the mutation places and clears them. */
type FormProblems = {
  refuseError: (error: unknown) => void;
  clear: () => void;
  shown: (error: unknown) => unknown;
};

/**
 * `options` as TanStack Query's `useMutation` takes them, and: `invalidates`, the list read again
 * once it succeeded (e.g. `["members"]`); `closes`, the dialog closes once it succeeded (after
 * `onSuccess`); `form`, the problems of the dialog's form: a refusal's details are placed on its
 * fields and closing clears them. `onClose` closes the dialog.
 * @returns the mutation, its `answer` (the last call's data, null before one or once closed),
 *   `close`, which resets the mutation (and the form's problems) and then calls `onClose`, and
 *   `state`, what `FormDialog` shows of it (pending, and the error not placed on a field)
 */
export function useDialogMutation<TData, TVariables>(
  options: UseMutationOptions<TData, Error, TVariables> & {
    invalidates?: QueryKey;
    closes?: boolean;
    form?: FormProblems;
  },
  onClose: () => void,
) {
  const queries = useQueryClient();
  const { invalidates, closes, form, ...mutationOptions } = options;
  const mutation = useMutation({
    ...mutationOptions,
    onSuccess: async (...answer) => {
      if (invalidates) void queries.invalidateQueries({ queryKey: invalidates });
      await options.onSuccess?.(...answer);
      if (closes) close();
    },
    onError: form ? form.refuseError : options.onError,
  });
  const close = () => {
    mutation.reset();
    form?.clear();
    onClose();
  };
  const error = form ? form.shown(mutation.error) : mutation.error;
  return {
    mutation,
    answer: mutation.data ?? null,
    close,
    state: { isPending: mutation.isPending, error },
  };
}
