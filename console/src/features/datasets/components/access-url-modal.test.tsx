import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { AccessUrlModal } from '@/features/datasets/components/access-url-modal';
import { mockFetch, on } from '@/testing/fetch-mock';
import { renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';

describe('access URL dialog', () => {
  it("shows the temporary (7 days) and permanent (API key) URLs; Copy reads 'Copied' for 700 ms", async () => {
    signIn();
    const calls = mockFetch(
      on('POST', '/v1/datasets/get/ludisurl/d1', {
        body: {
          success: true,
          temporary_url: 'http://storage.test/ludis/datasets/d1/a.csv?X-Amz-Expires=604800',
          expires_at: 1764400000,
          permanent_url: 'http://ludis.test/v1/datasets/download/d1?path=a.csv',
        },
      }),
    );
    const writeText = vi.fn(async () => undefined);
    const clipboard = vi.spyOn(navigator, 'clipboard', 'get').mockReturnValue({ writeText } as unknown as Clipboard);
    try {
      renderWithProviders(<AccessUrlModal datasetId="d1" fileKey="a.csv" onClose={() => undefined} />);
      const dialog = await screen.findByRole('dialog', { name: 'Access URL: a.csv' });
      const temporary = await within(dialog).findByRole('textbox', { name: 'Temporary URL' });
      expect(temporary).toHaveValue('http://storage.test/ludis/datasets/d1/a.csv?X-Amz-Expires=604800');
      expect(temporary).toHaveAccessibleDescription(/Valid for 7 days/);
      const permanent = within(dialog).getByRole('textbox', { name: 'Permanent URL' });
      expect(permanent).toHaveValue('http://ludis.test/v1/datasets/download/d1?path=a.csv');
      expect(permanent).toHaveAccessibleDescription(/needs your API key/);
      expect(within(dialog).getByText(/^curl -L -H "x-api-key: \$LUDIS_API_KEY"/)).toBeInTheDocument();
      expect(calls[0].body).toEqual({ path: 'a.csv' });

      vi.useFakeTimers();
      try {
        await act(async () => {
          fireEvent.click(within(dialog).getByRole('button', { name: 'Copy temporary url' }));
        });
        expect(writeText).toHaveBeenCalledWith('http://storage.test/ludis/datasets/d1/a.csv?X-Amz-Expires=604800');
        const copied = within(dialog).getByRole('button', { name: 'Copied temporary url' });
        expect(copied).toHaveTextContent('Copied');
        // The other button is untouched.
        expect(within(dialog).getByRole('button', { name: 'Copy permanent url' })).toHaveTextContent('Copy');
        await act(() => vi.advanceTimersByTimeAsync(650));
        expect(within(dialog).getByRole('button', { name: 'Copied temporary url' })).toBeInTheDocument();
        await act(() => vi.advanceTimersByTimeAsync(100));
        expect(within(dialog).getByRole('button', { name: 'Copy temporary url' })).toHaveTextContent('Copy');
      } finally {
        vi.useRealTimers();
      }
    } finally {
      clipboard.mockRestore();
    }
  });

  it('explains a failure in place', async () => {
    signIn();
    mockFetch(on('POST', '/v1/datasets/get/ludisurl/d1', { status: 403, body: { success: false, message: 'You need edit access' } }));
    renderWithProviders(<AccessUrlModal datasetId="d1" fileKey="dir/a.csv" onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Access URL: a.csv' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('You need edit access');
  });
});
