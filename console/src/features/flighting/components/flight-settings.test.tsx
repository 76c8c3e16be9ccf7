import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { FlightSettings, selectableRoles } from '@/features/flighting/components/flight-settings';
import type { Flighting, Role } from '@/lib/api/types';
import { mockFetch, on } from '@/testing/fetch-mock';
import { renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

const roles: Role[] = ['developer', 'management', 'administrator', 'superadmin'];
const flags: Flighting[] = [
  { key: 'insights', name: 'Insights', active: true, user_roles: ['developer', 'administrator'] },
  { key: 'projects', name: 'Projects', active: true, user_roles: ['administrator'] },
  { key: 'workflows', name: 'Workflows', active: false, user_roles: ['developer'] },
];

describe('flight settings', () => {
  it('offers server roles without administrator/superadmin; superadmins also get administrator', () => {
    expect(selectableRoles(roles, false)).toEqual(['developer', 'management']);
    expect(selectableRoles(roles, true)).toEqual(['developer', 'management', 'administrator']);
  });

  it('shows one checkbox per active feature and applies a role change', async () => {
    signIn({ role: 'administrator' });
    const calls = mockFetch(
      on('GET', '/v1/flighting', { body: { success: true, flightings: flags } }),
      on('PUT', '/v1/flighting', { body: { success: true, flightings: flags } }),
    );
    renderWithProviders(<FlightSettings organizationId="7" superadmin={false} serverRoles={roles} />);
    const insights = await screen.findByRole('checkbox', { name: 'Insights' });
    const projects = screen.getByRole('checkbox', { name: 'Projects' });
    expect(screen.queryByRole('checkbox', { name: 'Workflows' })).not.toBeInTheDocument();
    expect(insights).toBeChecked();
    expect(projects).not.toBeChecked();
    expect(screen.getByRole('button', { name: 'Apply Changes' })).toBeDisabled();

    await user().click(insights);
    await user().click(projects);
    await user().click(screen.getByRole('button', { name: 'Apply Changes' }));
    expect(await screen.findByText('Flighting configuration updated!')).toBeInTheDocument();
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.url).toBe('/v1/flighting?organization=7');
    expect(put?.body).toEqual({
      flightings: [
        { key: 'insights', name: 'Insights', active: true, user_roles: ['administrator'] },
        { key: 'projects', name: 'Projects', active: true, user_roles: ['administrator', 'developer'] },
        { key: 'workflows', name: 'Workflows', active: false, user_roles: ['developer'] },
      ],
    });
    expect(calls[0].url).toBe('/v1/flighting?organization=7');
  });
});
