import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { NO_PINNED, PinnedInsights } from '@/features/home/components/pinned-insights';
import { mockFetch, on } from '@/testing/fetch-mock';
import { renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';

describe('pinned insights', () => {
  it("says 'You have no pinned assets...' and links to the dashboard", async () => {
    signIn();
    mockFetch(on('GET', '/v1/applications/pin/list', { body: { success: true, applications: [] } }));
    renderWithProviders(<PinnedInsights />);
    expect(await screen.findByText(NO_PINNED)).toBeInTheDocument();
    expect(NO_PINNED).toBe('You have no pinned assets...');
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/insights');
  });

  it('shows at most 6', async () => {
    signIn();
    const apps = Array.from({ length: 8 }, (_, i) => ({ id: String(i), name: `App ${i}` }));
    mockFetch(on('GET', '/v1/applications/pin/list', { body: { success: true, applications: apps } }));
    renderWithProviders(<PinnedInsights />);
    const list = await screen.findByRole('list', { name: 'Pinned insights' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(6);
  });

  it('treats a missing route as nothing pinned', async () => {
    signIn();
    mockFetch(on('GET', '/v1/applications/pin/list', { status: 404, body: { success: false, code: 'route_not_found', message: 'Not found' } }));
    renderWithProviders(<PinnedInsights />);
    expect(await screen.findByText(NO_PINNED)).toBeInTheDocument();
  });
});
