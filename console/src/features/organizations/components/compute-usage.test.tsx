import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { ComputeUsage, hours } from '@/features/organizations/components/compute-usage';
import { mockFetch, on } from '@/testing/fetch-mock';
import { renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';

describe('compute usage', () => {
  it('rounds hours to a decimal below ten', () => {
    expect(hours(0.04)).toBe('0.0');
    expect(hours(2.46)).toBe('2.5');
    expect(hours(12.6)).toBe('13');
  });

  it('shows the hours in all, per item with its kind and per user, for the chosen period', async () => {
    signIn({ role: 'administrator' });
    const calls = mockFetch(
      on('GET', '/v1/organizations/o1/compute', {
        body: {
          success: true,
          period: 'month',
          from: 0,
          to: 1,
          total: { cpu_hours: 14.2, memory_gib_hours: 30 },
          items: [
            { id: 'p1', name: 'Trainer', kind: 'project', email: null, cpu_hours: 12, memory_gib_hours: 24 },
            { id: null, name: 'Other pods', kind: null, email: null, cpu_hours: 2.2, memory_gib_hours: 6 },
          ],
          users: [{ id: 'u1', name: 'Ada Lovelace', kind: null, email: 'ada@acme.io', cpu_hours: 14.2, memory_gib_hours: 30 }],
        },
      }),
    );
    renderWithProviders(<ComputeUsage organizationId="o1" period="month" />);
    expect(await screen.findByRole('heading', { name: 'Compute used this month' })).toBeInTheDocument();
    expect(screen.getByLabelText('Compute in all')).toHaveTextContent('14 CPU-hours30 memory GiB-hours');
    const items = screen.getByRole('table', { name: 'Compute per item' });
    expect(within(items).getByRole('row', { name: /^Trainer/ })).toHaveTextContent('TrainerProject1224');
    expect(within(items).getByRole('row', { name: /^Other pods/ })).toHaveTextContent('Other pods—2.26.0');
    expect(within(screen.getByRole('table', { name: 'Compute per user' })).getByRole('row', { name: /^Ada/ })).toHaveTextContent('Ada Lovelaceada@acme.io14');
    expect(calls.find((c) => c.url.includes('/compute'))?.url).toContain('period=month');
  });

  it('says when nothing ran', async () => {
    signIn({ role: 'administrator' });
    mockFetch(
      on('GET', '/v1/organizations/o1/compute', {
        body: { success: true, period: 'day', from: 0, to: 1, total: { cpu_hours: 0, memory_gib_hours: 0 }, items: [], users: [] },
      }),
    );
    renderWithProviders(<ComputeUsage organizationId="o1" period="day" />);
    expect(await screen.findByText(/Nothing ran in this period/)).toBeInTheDocument();
  });
});
