import { screen, within } from '@testing-library/react';
import { act } from 'react';
import { describe, expect, it } from 'vitest';

import { ERROR_TOAST_DURATION_MS, TOAST_DURATION_MS } from '@/config/constants';
import { notify } from '@/lib/notify';
import { advance, settle, installManualClock } from '@/testing/clock';
import { renderWithProviders } from '@/testing/render';

/** Shows a toast on a fake clock; answers its root once it is on screen. */
async function show(toast: () => void, text: string) {
  installManualClock();
  renderWithProviders(<p>page</p>);
  act(toast);
  await settle(() => expect(screen.getByText(text)).toBeInTheDocument());
  return screen.getByText(text).closest('.mantine-Notification-root') as HTMLElement;
}

/** The toast is still there one millisecond before `ms`, and gone (closing animation included) within 1 s after. */
async function expectClosesAfter(text: string, ms: number) {
  await advance(ms - 1);
  expect(screen.getByText(text)).toBeInTheDocument();
  await advance(1);
  await advance(1000);
  expect(screen.queryByText(text)).not.toBeInTheDocument();
}

describe('toasts', () => {
  it('success toasts are titled Success, have a close button, sit top-right and close after 3000 ms', async () => {
    const toast = await show(() => notify.success('Signed in successfully!'), 'Signed in successfully!');
    expect(within(toast).getByText('Success')).toBeInTheDocument();
    expect(within(toast).getByRole('button')).toBeInTheDocument();
    expect(toast.closest('[data-position]')).toHaveAttribute('data-position', 'top-right');
    expect(TOAST_DURATION_MS).toBe(3000);
    await expectClosesAfter('Signed in successfully!', TOAST_DURATION_MS);
  });

  it('error toasts are titled Error and last 5 s', async () => {
    const toast = await show(() => notify.error('Invalid 2FA Code'), 'Invalid 2FA Code');
    expect(within(toast).getByText('Error')).toBeInTheDocument();
    expect(ERROR_TOAST_DURATION_MS).toBe(5000);
    await expectClosesAfter('Invalid 2FA Code', ERROR_TOAST_DURATION_MS);
  });
});
