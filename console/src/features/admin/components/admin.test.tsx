import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { ActivityTable } from '@/features/admin/components/activity-table';
import { LoginsChart, pivotLogins } from '@/features/admin/components/logins-chart';
import { TILE_DEFINITIONS, UsageSummary } from '@/features/admin/components/usage-summary';
import { carouselWindow, OrganizationCarousel } from '@/features/admin/components/organization-carousel';
import type { Organization } from '@/lib/api/types';
import { renderWithProviders } from '@/testing/render';
import { mockFetch, on } from '@/testing/fetch-mock';
import { makeOrganization, signIn } from '@/testing/session';
import { user } from '@/testing/user';

const org = (i: number): Organization =>
  makeOrganization({ id: String(i), name: `Org ${i}`, admin_email: `admin${i}@org.io`, tier: 'free', max_seats: 10 });

describe('organization carousel', () => {
  it('windows 4 cards at a time', () => {
    const items = [1, 2, 3, 4, 5, 6];
    expect(carouselWindow(items, 0)).toEqual([1, 2, 3, 4]);
    expect(carouselWindow(items, 4)).toEqual([5, 6]);
  });

  it('shows 4 cards with seat usage and legacy links, and pages forward and back', async () => {
    const orgs = [1, 2, 3, 4, 5, 6].map((i) => ({ ...org(i), activeUsers: i }));
    renderWithProviders(<OrganizationCarousel organizations={orgs} />);
    const list = screen.getByRole('list', { name: 'Organizations' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(4);
    const first = within(list).getByRole('listitem', { name: 'Org 1' });
    expect(first).toHaveTextContent('admin1@org.io');
    expect(first).toHaveTextContent('Active users: 1 / 10');
    expect(within(first).getByRole('link', { name: 'View in Legacy Mode' })).toHaveAttribute('href', '/organizations/1/users');
    expect(screen.getByRole('button', { name: 'Previous organizations' })).toBeDisabled();

    await user().click(screen.getByRole('button', { name: 'Next organizations' }));
    const names = within(screen.getByRole('list', { name: 'Organizations' }))
      .getAllByRole('listitem')
      .map((li) => li.getAttribute('aria-label'));
    expect(names).toEqual(['Org 5', 'Org 6']);
    expect(screen.getByRole('button', { name: 'Next organizations' })).toBeDisabled();
    expect(screen.getByText('5–6 of 6 organizations')).toBeInTheDocument();
  });

  it('says so when there is nothing to show', () => {
    renderWithProviders(<OrganizationCarousel organizations={[]} />);
    expect(screen.getByText('No organizations to show')).toBeInTheDocument();
  });
});

describe('logins chart', () => {
  it('draws one day as bars with its total, two or more days as a line', async () => {
    signIn({ role: 'superadmin' }, true);
    let points = [
      { date: '2026-11-02', logins: 3, orgName: 'Acme' },
      { date: '2026-11-02', logins: 2, orgName: 'Globex' },
    ];
    mockFetch(on('GET', '/v1/metrics/numLogins', () => ({ body: { success: true, logins: points } })));
    const { queryClient } = renderWithProviders(<LoginsChart period="day" />);
    expect(await screen.findByTestId('logins-chart')).toHaveAttribute('data-kind', 'bar');
    expect(screen.getByText(/^Total: 5 logins on 2026-11-02/)).toBeInTheDocument();
    points = [...points, { date: '2026-11-03', logins: 1, orgName: 'Acme' }];
    await queryClient.invalidateQueries();
    await vi.waitFor(() => expect(screen.getByTestId('logins-chart')).toHaveAttribute('data-kind', 'line'));
    expect(screen.getByText(/^Total: 6 logins \(the 5 organizations with the most sign-ins;/)).toBeInTheDocument();
  });

  it("names an organization removed since 'Removed organization', not '(deleted)'", () => {
    const { series } = pivotLogins([{ date: '2026-11-02', logins: 3, orgName: '(deleted)' }]);
    expect(series.map((s) => s.name)).toEqual(['Removed organization']);
  });

  it('pivots {date, logins, orgName} into one row per date with a series per organization', () => {
    const { rows, series } = pivotLogins([
      { date: '2026-11-02', logins: 3, orgName: 'Acme' },
      { date: '2026-11-01', logins: 1, orgName: 'Acme' },
      { date: '2026-11-02', logins: 2, orgName: 'Globex' },
    ]);
    expect(series.map((s) => s.name)).toEqual(['Acme', 'Globex']);
    expect(rows).toEqual([
      { date: '2026-11-01', Acme: 1, Globex: 0 },
      { date: '2026-11-02', Acme: 3, Globex: 2 },
    ]);
  });
});

describe('activity table', () => {
  it('says who did what to which item in words, never a code or a blank', async () => {
    signIn({ role: 'administrator' }, true);
    mockFetch(
      on('GET', '/v1/metrics/users', {
        body: {
          success: true,
          entity: 'users',
          total: 2,
          page: 1,
          limit: 10,
          rows: [
            { entity_name: 'Grace Hopper', first_name: 'Ada', last_name: 'Lovelace', email: 'ada@acme.io', action: '2fa_disabled', date: 1763700000 },
            { entity_name: '', first_name: null, last_name: null, email: null, action: 'deleted', date: 1763600000 },
          ],
        },
      }),
    );
    renderWithProviders(<ActivityTable entity="users" period="week" />);
    const table = await screen.findByRole('table', { name: 'Activity' });
    const [first, second] = within(table).getAllByRole('row').slice(1);
    expect(first).toHaveTextContent('Ada Lovelace');
    expect(first).toHaveTextContent('disabled two-factor authentication for user Grace Hopper');
    expect(first).not.toHaveTextContent('2fa_disabled');
    expect(second).toHaveTextContent('A removed user');
    expect(second).toHaveTextContent('deleted an unnamed user');
  });
});

describe('usage summary tiles', () => {
  it('says what each figure counts, so active users above total users reads as it is', async () => {
    signIn({ role: 'superadmin' }, true);
    mockFetch(
      on('GET', '/v1/metrics', {
        body: { success: true, period: 'week', from: 0, to: 0, metrics: { logins: 9, failedLogins: 1, activeUsers: 4, totalUsers: 3, organizations: 2, activities: 5, byEntity: [] } },
      }),
    );
    renderWithProviders(<UsageSummary period="week" superadmin />);
    const totals = await screen.findByRole('list', { name: 'Totals' });
    expect(within(totals).getAllByRole('listitem').map((t) => t.getAttribute('aria-label'))).toEqual(Object.values({
      logins: 'Logins', failed: 'Failed logins', active: 'Active users', total: 'Total users', orgs: 'Organizations', activities: 'Activities',
    }));
    await user().hover(within(totals).getByRole('button', { name: 'What Active users counts' }));
    expect(await screen.findByRole('tooltip', { hidden: true })).toHaveTextContent(TILE_DEFINITIONS.activeUsers);
    expect(TILE_DEFINITIONS.activeUsers).toMatch(/including accounts removed since/);
    expect(TILE_DEFINITIONS.totalUsers).toBe('Accounts that exist now.');
  });
});
