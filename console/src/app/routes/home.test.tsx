import { render, screen, within } from '@testing-library/react';
import { RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';

import { AppProvider } from '@/app/provider';
import { createTestRouter } from '@/app/router';
import { makeDataset } from '@/testing/datasets';
import { mockFetch, on } from '@/testing/fetch-mock';
import { makeInsight } from '@/testing/insights';
import { signIn } from '@/testing/session';

const now = Math.floor(Date.now() / 1000);

function renderHome() {
  render(
    <AppProvider>
      <RouterProvider router={createTestRouter('/')} />
    </AppProvider>,
  );
}

describe('home', () => {
  it('lists the recent insights and datasets, newest first, with an empty state where there are none; no projects without the feature', async () => {
    signIn({ role: 'developer' }, true);
    const calls = mockFetch(
      on('GET', '/v1/flighting', {
        body: {
          success: true,
          flightings: [
            { key: 'insights', name: 'Insights', active: true, user_roles: ['developer'] },
            { key: 'datasets', name: 'Datasets', active: true, user_roles: ['developer'] },
            { key: 'projects', name: 'Projects', active: true, user_roles: ['administrator'] },
          ],
        },
      }),
      on('GET', '/v1/applications/pin/list', { body: { success: true, applications: [] } }),
      on('GET', '/v1/applications/insights', {
        body: {
          success: true,
          applications: [
            makeInsight({ id: 'old', name: 'Older board', updated_at: now - 86400 * 30 }),
            makeInsight({ id: 'new', name: 'Fresh board', updated_at: now - 60 }),
          ],
          total: 2,
          page: 1,
          pageSize: 12,
          totalPages: 1,
        },
      }),
      on('GET', '/v1/datasets/listdatasets', { body: { success: true, datasets: [], total: 0, page: 1, totalPages: 0 } }),
    );
    renderHome();
    const insights = await screen.findByRole('region', { name: 'Recent insights' });
    const links = await within(insights).findAllByRole('link', { name: /board/ });
    expect(links.map((l) => l.textContent)).toEqual(['Fresh board', 'Older board']);
    expect(links[0]).toHaveAttribute('href', '/app/new');
    expect(within(insights).getByRole('link', { name: 'All insights' })).toHaveAttribute('href', '/insights');

    const datasets = screen.getByRole('region', { name: 'Recent datasets' });
    expect(await within(datasets).findByText('No datasets yet')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Recent projects' })).not.toBeInTheDocument();
    expect(calls.some((c) => c.url.startsWith('/v2/projects'))).toBe(false);
    const insightsCall = calls.find((c) => c.url.startsWith('/v1/applications/insights'));
    expect(insightsCall?.url).toContain('sortBy=updated_at');
  });

  it('shows the recent projects and datasets to a role that has them', async () => {
    signIn({ role: 'superadmin' }, true);
    mockFetch(
      on('GET', '/v1/flighting', { body: { success: true, flightings: [] } }),
      on('GET', '/v1/applications/pin/list', { body: { success: true, applications: [] } }),
      on('GET', '/v1/applications/insights', { body: { success: true, applications: [], total: 0, page: 1, pageSize: 12, totalPages: 0 } }),
      on('GET', '/v1/datasets/listdatasets', { body: { success: true, datasets: [makeDataset({ id: 'd1', name: 'Sales' })], total: 1, page: 1, totalPages: 1 } }),
      on('GET', '/v2/projects', { body: { success: true, projects: [], page: 1, page_size: 12, total: 0, total_pages: 0 } }),
    );
    renderHome();
    const datasets = await screen.findByRole('region', { name: 'Recent datasets' });
    expect(await within(datasets).findByRole('link', { name: 'Sales' })).toHaveAttribute('href', '/datasets/d1');
    expect(await within(screen.getByRole('region', { name: 'Recent projects' })).findByText('No projects yet')).toBeInTheDocument();
    expect(await within(screen.getByRole('region', { name: 'Recent insights' })).findByText('No insights yet')).toBeInTheDocument();
  });
});
