import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { QuotaUsage, quantity } from '@/features/organizations/components/quota-usage';
import { mockFetch, on } from '@/testing/fetch-mock';
import { renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';

describe('quota usage', () => {
  it('reads Kubernetes quantities', () => {
    expect(quantity('1900m')).toBeCloseTo(1.9);
    expect(quantity('2')).toBe(2);
    expect(quantity('512Mi')).toBe(512 * 2 ** 20);
    expect(quantity('1G')).toBe(1e9);
    expect(quantity('lots')).toBeNaN();
  });

  it('shows per resource what is used of what the tier allows, a full one in red', async () => {
    signIn({ role: 'administrator' });
    mockFetch(
      on('GET', '/v1/organizations/o1/quota', {
        body: {
          success: true,
          tier: 'free',
          quota: [
            { resource: 'cpu', used: '2', hard: '2' },
            { resource: 'memory', used: '1Gi', hard: '8Gi' },
            { resource: 'pods', used: '3', hard: '50' },
          ],
        },
      }),
    );
    renderWithProviders(<QuotaUsage organizationId="o1" />);
    expect(await screen.findByRole('heading', { name: 'Quota (free tier)' })).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Quota' });
    const cpu = within(table).getByRole('row', { name: /^CPU/ });
    expect(cpu).toHaveTextContent('2 CPU');
    expect(within(cpu).getByRole('progressbar', { name: 'CPU: 100% used' })).toBeInTheDocument();
    expect(within(table).getByRole('progressbar', { name: 'Memory: 13% used' })).toBeInTheDocument();
    expect(within(table).getByRole('row', { name: /^Running pods/ })).toHaveTextContent('350');
  });

  it('says so when no quota applies yet', async () => {
    signIn({ role: 'administrator' });
    mockFetch(on('GET', '/v1/organizations/o1/quota', { body: { success: true, tier: 'paid', quota: null } }));
    renderWithProviders(<QuotaUsage organizationId="o1" />);
    expect(await screen.findByText('No quota applies yet: the organization has nothing on the cluster.')).toBeInTheDocument();
  });
});
