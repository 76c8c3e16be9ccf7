import { screen, within } from '@testing-library/react';
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';

import { notify } from '@/lib/notify';
import { renderWithProviders } from '@/testing/render';

describe('toasts', () => {
  it('success toasts are titled Success, have a close button, sit top-right and close after 3000 ms', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderWithProviders(<p>page</p>);
      act(() => notify.success('Signed in successfully!'));
      const toast = (await screen.findByText('Signed in successfully!')).closest('.mantine-Notification-root') as HTMLElement;
      expect(within(toast).getByText('Success')).toBeInTheDocument();
      expect(within(toast).getByRole('button')).toBeInTheDocument();
      expect(toast.closest('[data-position]')).toHaveAttribute('data-position', 'top-right');
      await act(async () => {
        vi.advanceTimersByTime(2500);
      });
      expect(screen.getByText('Signed in successfully!')).toBeInTheDocument();
      await act(async () => {
        vi.advanceTimersByTime(1500);
      });
      await vi.waitFor(() => expect(screen.queryByText('Signed in successfully!')).not.toBeInTheDocument());
    } finally {
      vi.useRealTimers();
    }
  });

  it('error toasts are titled Error and last 5 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderWithProviders(<p>page</p>);
      act(() => notify.error('Invalid 2FA Code'));
      const toast = (await screen.findByText('Invalid 2FA Code')).closest('.mantine-Notification-root') as HTMLElement;
      expect(within(toast).getByText('Error')).toBeInTheDocument();
      await act(async () => {
        vi.advanceTimersByTime(4000);
      });
      expect(screen.getByText('Invalid 2FA Code')).toBeInTheDocument();
      await act(async () => {
        vi.advanceTimersByTime(1500);
      });
      await vi.waitFor(() => expect(screen.queryByText('Invalid 2FA Code')).not.toBeInTheDocument());
    } finally {
      vi.useRealTimers();
    }
  });
});
