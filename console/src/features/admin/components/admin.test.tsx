import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { ActivityTable } from '@/features/admin/components/activity-table';
import { LoginsChart, pivotLogins } from '@/features/admin/components/logins-chart';
import { UsageSummary } from '@/features/admin/components/usage-summary';
import { carouselWindow, OrganizationCarousel } from '@/features/admin/components/organization-carousel';
import type { Organization } from '@/lib/api/types';
import { renderWithProviders } from '@/testing/render';
import { mockFetch, on } from '@/testing/fetch-mock';
import { makeLoginSeries, makeOverview, orgSeries } from '@/testing/metrics';
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

  it("says what a card's 'Active users' counts, in the API's words", async () => {
    renderWithProviders(<OrganizationCarousel organizations={[{ ...org(1), activeUsers: 2 }]} seatsDefinition="Accounts that are not deactivated: the seats in use." />);
    await user().hover(screen.getByRole('button', { name: 'What Active users of Org 1 counts' }));
    expect(await screen.findByRole('tooltip', { hidden: true })).toHaveTextContent('Accounts that are not deactivated: the seats in use.');
  });

  it('says so when there is nothing to show', () => {
    renderWithProviders(<OrganizationCarousel organizations={[]} />);
    expect(screen.getByText('No organizations to show')).toBeInTheDocument();
  });
});

describe('logins chart', () => {
  it('draws one day as bars with its total, two or more days as a line', async () => {
    signIn({ role: 'superadmin' }, true);
    let answer = makeLoginSeries(
      [
        { date: '2026-11-02', logins: 3, series: 'o1' },
        { date: '2026-11-02', logins: 2, series: 'o2' },
      ],
      [orgSeries('o1', 'Acme', 3), orgSeries('o2', 'Globex', 2)],
    );
    mockFetch(on('GET', '/v1/metrics/numLogins', () => ({ body: answer })));
    const { queryClient } = renderWithProviders(<LoginsChart period="day" />);
    expect(await screen.findByTestId('logins-chart')).toHaveAttribute('data-kind', 'bar');
    expect(screen.getByText('Total: 5 logins on 2026-11-02')).toBeInTheDocument();
    answer = makeLoginSeries(
      [
        { date: '2026-11-02', logins: 3, series: 'o1' },
        { date: '2026-11-02', logins: 2, series: 'o2' },
        { date: '2026-11-03', logins: 1, series: 'o1' },
      ],
      [orgSeries('o1', 'Acme', 4), orgSeries('o2', 'Globex', 2)],
    );
    await queryClient.invalidateQueries();
    await vi.waitFor(() => expect(screen.getByTestId('logins-chart')).toHaveAttribute('data-kind', 'line'));
    expect(screen.getByText('Total: 6 logins')).toBeInTheDocument();
  });

  it("shows the API's total and definition, and names the organizations a folded series stands for", async () => {
    signIn({ role: 'superadmin' }, true);
    const answer = makeLoginSeries(
      [
        { date: '2026-11-02', logins: 3, series: 'o1' },
        { date: '2026-11-02', logins: 2, series: 'other' },
        { date: '2026-11-02', logins: 1, series: 'deleted' },
      ],
      [
        orgSeries('o1', 'Acme', 3),
        { key: 'other', name: 'Other organizations', kind: 'other', logins: 2, organizations: ['Newco', 'Initech'], organizationCount: 2 },
        { key: 'deleted', name: 'Deleted organizations', kind: 'deleted', logins: 1, organizations: [], organizationCount: 1 },
      ],
    );
    mockFetch(on('GET', '/v1/metrics/numLogins', { body: answer }));
    renderWithProviders(<LoginsChart period="day" />);
    expect(await screen.findByText('Total: 6 logins on 2026-11-02')).toBeInTheDocument();
    expect(screen.getByText('Other organizations: Newco, Initech')).toBeInTheDocument();
    expect(screen.getByText('Deleted organizations: 1 deleted since, 1 sign-in')).toBeInTheDocument();
    expect(screen.queryByText(/\(deleted\)/)).not.toBeInTheDocument();
    await user().hover(screen.getByRole('button', { name: 'What the Logins chart counts' }));
    expect(await screen.findByRole('tooltip', { hidden: true })).toHaveTextContent(answer.definition);
  });

  it("says 'login' for one", async () => {
    signIn({ role: 'administrator' }, true);
    mockFetch(on('GET', '/v1/metrics/numLogins', { body: makeLoginSeries([{ date: '2026-11-02', logins: 1, series: 'o1' }], [orgSeries('o1', 'Acme', 1)]) }));
    renderWithProviders(<LoginsChart period="day" organization="o1" />);
    expect(await screen.findByText('Total: 1 login on 2026-11-02')).toBeInTheDocument();
  });

  it("pivots the API's points into one row per date with a value per series, labelled by name", () => {
    const { rows, series } = pivotLogins(
      makeLoginSeries(
        [
          { date: '2026-11-02', logins: 3, series: 'o1' },
          { date: '2026-11-01', logins: 1, series: 'o1' },
          { date: '2026-11-02', logins: 2, series: 'other' },
        ],
        [orgSeries('o1', 'Acme', 4), { key: 'other', name: 'Other organizations', kind: 'other', logins: 2, organizations: ['B'], organizationCount: 1 }],
      ),
    );
    expect(series.map((x) => [x.name, x.label])).toEqual([
      ['o1', 'Acme'],
      ['other', 'Other organizations'],
    ]);
    expect(rows).toEqual([
      { date: '2026-11-01', o1: 1, other: 0 },
      { date: '2026-11-02', o1: 3, other: 2 },
    ]);
  });
});

describe('activity table', () => {
  it('says who did what to which item of which kind, in words, never a code or a blank', async () => {
    signIn({ role: 'administrator' }, true);
    mockFetch(
      on('GET', '/v1/metrics/activities', {
        body: {
          success: true,
          entity: null,
          total: 3,
          page: 1,
          limit: 10,
          rows: [
            { entity_type: 'users', entity_id: 'u-2', entity_name: 'grace@acme.io', first_name: 'Ada', last_name: 'Lovelace', email: 'ada@acme.io', action: '2fa_disabled', date: 1763700000 },
            { entity_type: 'datasets', entity_id: 'd-1', entity_name: 'Q3 sales', first_name: 'Ada', last_name: 'Lovelace', email: 'ada@acme.io', action: 'deleted', date: 1763650000 },
            { entity_type: 'applications', entity_id: '5d1c0e2a-0000-4000-8000-000000000000', entity_name: '', first_name: null, last_name: null, email: null, action: 'created', date: 1763600000 },
          ],
        },
      }),
    );
    renderWithProviders(<ActivityTable entity="all" period="week" />);
    const table = await screen.findByRole('table', { name: 'Activity' });
    const [first, second, third] = within(table).getAllByRole('row').slice(1);
    // One sentence: who, what, which kind, which item; the e-mail under it.
    expect(first).toHaveTextContent('Ada Lovelace turned off two-factor authentication for user grace@acme.io');
    expect(first).toHaveTextContent('ada@acme.io');
    expect(first).not.toHaveTextContent('2fa_disabled');
    expect(second).toHaveTextContent('Ada Lovelace deleted dataset Q3 sales');
    expect(third).toHaveTextContent('A removed user created insight (id 5d1c0e2a)');
  });
});

describe('usage summary tiles', () => {
  it("shows the API's figures, in its order, each with the API's definition in its tooltip", async () => {
    signIn({ role: 'superadmin' }, true);
    const overview = makeOverview({ logins: 9, failedLogins: 0, activeUsers: 3, totalUsers: 4, organizations: 2, activities: 0 });
    // The API decides which figures, in which order, with which words.
    const figures = [overview.figures[0], overview.figures[2], overview.figures[3]];
    mockFetch(on('GET', '/v1/metrics', { body: { ...overview, figures } }));
    renderWithProviders(<UsageSummary period="week" />);
    const totals = await screen.findByRole('list', { name: 'Totals' });
    expect(within(totals).getAllByRole('listitem').map((t) => [t.getAttribute('aria-label'), t.textContent])).toEqual([
      ['Logins', 'Logins9'],
      ['Active users', 'Active users3'],
      ['Total users', 'Total users4'],
    ]);
    await user().hover(within(totals).getByRole('button', { name: 'What Active users counts' }));
    expect(await screen.findByRole('tooltip', { hidden: true })).toHaveTextContent(figures[1].definition);
  });
});
