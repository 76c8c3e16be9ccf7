import { api } from '@/lib/api-client';
import type { AvailableSeatsResponse, Id } from '@/lib/api/types';

/** GET /v1/organizations/{id}/availableSeats, checked before the add-user form opens. */
export function getAvailableSeats(organizationId: Id) {
  return api.get<AvailableSeatsResponse>(`/v1/organizations/${encodeURIComponent(String(organizationId))}/availableSeats`);
}

export function getAvailableSeatsQueryOptions(organizationId: Id) {
  return {
    queryKey: ['organizations', String(organizationId), 'availableSeats'] as const,
    queryFn: () => getAvailableSeats(organizationId),
    staleTime: 0,
  };
}
