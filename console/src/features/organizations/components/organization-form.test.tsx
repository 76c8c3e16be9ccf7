import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { ORGANIZATION_MESSAGES, OrganizationForm, validateOrganization } from '@/features/organizations/components/organization-form';
import type { Organization } from '@/lib/api/types';
import { mockFetch, on } from '@/testing/fetch-mock';
import { renderWithProviders } from '@/testing/render';
import { makeOrganization, signIn } from '@/testing/session';
import { user } from '@/testing/user';

const acme: Organization = makeOrganization();

describe('organization form', () => {
  it('requires name, a valid admin e-mail and seats of 0 or more', async () => {
    const calls = mockFetch(on('GET', '/v1/organizations/buckets', { body: { buckets: [] } }));
    renderWithProviders(<OrganizationForm onSaved={() => undefined} />);
    const seats = screen.getByLabelText(/Max seats/);
    await user().clear(seats);
    await user().type(screen.getByLabelText(/Admin email/), 'nope');
    await user().click(screen.getByRole('button', { name: 'Create organization' }));
    expect(screen.getByText(ORGANIZATION_MESSAGES.name)).toBeInTheDocument();
    expect(screen.getByText('Email is invalid!')).toBeInTheDocument();
    expect(screen.getByText(ORGANIZATION_MESSAGES.maxSeats)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('creates an organization with default flightings', async () => {
    signIn({ role: 'superadmin' });
    const calls = mockFetch(
      on('GET', '/v1/organizations/buckets', { body: { buckets: [] } }),
      on('POST', '/v1/organizations', { body: { success: true, organization: acme } }),
    );
    const onSaved = vi.fn();
    renderWithProviders(<OrganizationForm onSaved={onSaved} />);
    await user().type(screen.getByLabelText(/^Name/), 'Acme');
    await user().type(screen.getByLabelText(/Admin email/), 'boss@acme.io');
    await user().click(screen.getByRole('button', { name: 'Create organization' }));
    expect(await screen.findByText('Organization created successfully!')).toBeInTheDocument();
    expect(onSaved).toHaveBeenCalled();
    const body = calls.find((c) => c.method === 'POST')?.body as {
      organization: { name: string; max_seats: number; flightings: { key: string; user_roles: string[] }[] };
    };
    expect(body.organization).toMatchObject({ name: 'Acme', admin_email: 'boss@acme.io', tier: 'free', max_seats: 10 });
    expect(body.organization.flightings.map((f) => f.key)).toEqual(['insights', 'projects', 'workflows', 'datasets', 'notebooks']);
    for (const f of body.organization.flightings) {
      expect(f.user_roles).toEqual(['developer', 'management', 'administrator']);
    }
  });

  it('refuses an idle time that is not whole minutes from 0 to a week', () => {
    const values = { name: 'Acme', admin_email: 'boss@acme.io', tier: 'free', max_seats: 1, description: '', bucket_id: null, allow_always_on: false };
    for (const bad of [20000, -1, 1.5, '']) {
      expect(validateOrganization({ ...values, idle_minutes: bad }, false).idle_minutes).toBe(ORGANIZATION_MESSAGES.idleMinutes);
    }
    expect(validateOrganization({ ...values, idle_minutes: 0 }, false).idle_minutes).toBeNull();
  });

  it('sends the idle shutdown and the always-on leave', async () => {
    signIn({ role: 'superadmin' });
    const calls = mockFetch(
      on('GET', '/v1/organizations/buckets', { body: { buckets: [] } }),
      on('PUT', '/v1/organizations/7', { body: { success: true, organization: acme } }),
    );
    renderWithProviders(<OrganizationForm organization={acme} onSaved={() => undefined} />);
    const idle = screen.getByLabelText(/Idle shutdown/);
    expect(idle).toHaveValue('60');
    await user().clear(idle);
    await user().type(idle, '15');
    await user().click(screen.getByRole('switch', { name: /pin apps always on/ }));
    await user().click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Organization updated successfully!')).toBeInTheDocument();
    const body = calls.find((c) => c.method === 'PUT')?.body as { organization: Record<string, unknown> };
    expect(body.organization).toMatchObject({ idle_minutes: 15, allow_always_on: true });
  });

  it('switches the 2FA requirement and deletes after confirmation', async () => {
    signIn({ role: 'superadmin' });
    const calls = mockFetch(
      on('GET', '/v1/organizations/buckets', { body: { buckets: [] } }),
      on('PUT', '/v1/organizations/7/2farequired', { body: { success: true } }),
      on('DELETE', '/v1/organizations/7', { body: { success: true } }),
    );
    const onDeleted = vi.fn();
    renderWithProviders(<OrganizationForm organization={acme} onSaved={() => undefined} onDeleted={onDeleted} />);
    await user().click(screen.getByRole('switch', { name: /Require two-factor/ }));
    expect(screen.getByRole('switch', { name: /Require two-factor/ })).toBeChecked();
    expect(await screen.findByText('2FA Status Updated Successfully!')).toBeInTheDocument();
    expect(calls.find((c) => c.url === '/v1/organizations/7/2farequired')?.body).toEqual({ new2faRequiredStatus: true });

    await user().click(screen.getByRole('button', { name: 'Delete organization' }));
    expect(await screen.findByText('Are you sure?')).toBeInTheDocument();
    await user().click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Organization Deleted!')).toBeInTheDocument();
    expect(onDeleted).toHaveBeenCalled();
  });

  it('flips the 2FA switch back when the API refuses', async () => {
    signIn({ role: 'administrator' });
    mockFetch(
      on('GET', '/v1/organizations/buckets', { body: { buckets: [] } }),
      on('PUT', '/v1/organizations/7/2farequired', { status: 403, body: { success: false, code: 'forbidden', message: 'Not allowed' } }),
    );
    renderWithProviders(<OrganizationForm organization={acme} onSaved={() => undefined} />);
    await user().click(screen.getByRole('switch', { name: /Require two-factor/ }));
    expect(await screen.findByText('Not allowed')).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.getByRole('switch', { name: /Require two-factor/ })).not.toBeChecked());
  });
});
