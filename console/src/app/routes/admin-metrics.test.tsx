import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';

import { useCreateOrganization } from '@/features/organizations/api/create-organization';
import { useDeleteUser } from '@/features/users/api/delete-user';
import { createQueryClient, METRICS_KEY } from '@/lib/query-client';
import { mockFetch, on } from '@/testing/fetch-mock';
import { makeOrganization } from '@/testing/session';

// The admin portal's figures (features/admin) follow the organizations and users features' changes.
describe('metrics follow organization and user changes', () => {
  it('creating or deleting an organization or a user makes every metrics query stale', async () => {
    mockFetch(
      on('POST', '/v1/organizations', { status: 201, body: { success: true, message: 'Organization created successfully!', organization: makeOrganization({ id: '9' }) } }),
      on('DELETE', '/v1/users/5', { body: { success: true, message: 'User Deleted' } }),
    );
    const queryClient = createQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
    const keys = [
      [...METRICS_KEY, { period: 'week', organizationId: undefined }],
      [...METRICS_KEY, 'numLogins', { period: 'week', limit: 5 }],
    ];
    const seed = () => keys.forEach((k) => queryClient.setQueryData(k, { success: true }));
    const stale = () => keys.map((k) => queryClient.getQueryState(k)?.isInvalidated);

    seed();
    const org = renderHook(() => useCreateOrganization(), { wrapper });
    await act(() => org.result.current.mutateAsync({ name: 'New', admin_email: 'n@n.io', tier: 'free', max_seats: 5 } as never));
    expect(stale()).toEqual([true, true]);

    seed();
    expect(stale()).toEqual([false, false]);
    const del = renderHook(() => useDeleteUser(), { wrapper });
    await act(() => del.result.current.mutateAsync('5'));
    expect(stale()).toEqual([true, true]);
  });
});
