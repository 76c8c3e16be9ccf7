import { notifications } from '@mantine/notifications';
import { useMemo, useRef } from 'react';

import { ERROR_TOAST_DURATION_MS, TOAST_DURATION_MS } from '@/config/constants';

/** The text of an error as its toast shows it. */
export function messageOf(error: unknown) {
  return error instanceof Error ? error.message : String(error);
}

/** The same message shown twice at once is one toast: its id is the message's. */
function errorToastId(message: string) {
  return `error:${message}`;
}

/**
 * Toasts as the spec says: success toasts are titled 'Success' and last 3000 ms, error toasts
 * 'Error' and 5 s; all top-right (set on the Notifications provider) with a close button.
 */
export const notify = {
  success(message: string) {
    notifications.show({
      title: 'Success',
      message,
      color: 'green',
      autoClose: TOAST_DURATION_MS,
      withCloseButton: true,
    });
  },
  error(message: string) {
    notifications.show({
      id: errorToastId(message),
      title: 'Error',
      message,
      color: 'red',
      autoClose: ERROR_TOAST_DURATION_MS,
      withCloseButton: true,
    });
  },
  /** Takes back the error toasts of these messages, on screen or queued. */
  dismissErrors(messages: Iterable<string>) {
    for (const message of messages) notifications.hide(errorToastId(message));
  },
  /** Drops every toast on screen and queued (a successful sign-in ends the errors before it). */
  clear() {
    notifications.clean();
    notifications.cleanQueue();
  },
};

/**
 * The error toasts one dialog caused — its own, and those the query client showed for its failed
 * calls — so that its next success takes them back: an old 'No user with the e-mail …' beside
 * 'Application shared!' reads as if the share had failed.
 */
export function useErrorToasts() {
  const shown = useRef(new Set<string>());
  return useMemo(
    () => ({
      /** Shows an error toast and remembers it. */
      show(message: string) {
        notify.error(message);
        shown.current.add(message);
      },
      /** Remembers the toast the query client shows for a failed call. */
      shownFor(error: unknown) {
        shown.current.add(messageOf(error));
      },
      /** Takes back every error toast remembered so far. */
      clear() {
        notify.dismissErrors(shown.current);
        shown.current.clear();
      },
    }),
    [],
  );
}
