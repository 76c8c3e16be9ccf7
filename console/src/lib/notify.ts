import { notifications } from '@mantine/notifications';

import { ERROR_TOAST_DURATION_MS, TOAST_DURATION_MS } from '@/config/constants';

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
      // The same message shown twice at once is one toast.
      id: `error:${message}`,
      title: 'Error',
      message,
      color: 'red',
      autoClose: ERROR_TOAST_DURATION_MS,
      withCloseButton: true,
    });
  },  /** Drops every toast on screen and queued (a successful sign-in ends the errors before it). */
  clear() {
    notifications.clean();
    notifications.cleanQueue();
  },
};
