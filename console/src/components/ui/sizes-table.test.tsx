import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { SizesTable } from '@/components/ui/sizes-table';
import { mockFetch, on } from '@/testing/fetch-mock';
import { SIZES } from '@/testing/projects';
import { renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';

describe('sizes table', () => {
  it('lists what each size gives and marks the defaults', async () => {
    signIn({ role: 'administrator' });
    mockFetch(on('GET', '/v2/cluster/sizes/list', { body: SIZES }));
    renderWithProviders(<SizesTable />);
    const table = await screen.findByRole('table', { name: 'Hardware sizes' });
    const medium = within(table).getByRole('row', { name: /^medium/ });
    expect(medium).toHaveTextContent('0.5–2 CPU · 1Gi memory · 4Gi disk');
    expect(within(medium).getByText('default: projects, notebooks, tasks')).toBeInTheDocument();
    expect(within(within(table).getByRole('row', { name: /^small/ })).getByText('default: apps, reports')).toBeInTheDocument();
    expect(within(table).getByRole('row', { name: /^large/ })).toHaveTextContent('Training');
  });
});
