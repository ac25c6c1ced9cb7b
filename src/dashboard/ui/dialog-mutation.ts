/**
 * The mutation a dialog runs (docs/dashboard.md#screens): create a key, rotate a secret, remove a
 * member. Closing forgets its answer and error, so the dialog opens fresh next time; the answer
 * shown once (a key, a secret, a sign-in link) is the mutation's own data, not a copy of it.
 */
import { type UseMutationOptions, useMutation } from "@tanstack/react-query";

/**
 * `options` as TanStack Query's `useMutation` takes them; `onClose` closes the dialog.
 * @returns the mutation, its `answer` (the last call's data, null before one or once closed) and
 *   `close`, which resets the mutation and then calls `onClose`
 */
export function useDialogMutation<TData, TVariables>(
  options: UseMutationOptions<TData, Error, TVariables>,
  onClose: () => void,
) {
  const mutation = useMutation(options);
  const close = () => {
    mutation.reset();
    onClose();
  };
  return { mutation, answer: mutation.data ?? null, close };
}
