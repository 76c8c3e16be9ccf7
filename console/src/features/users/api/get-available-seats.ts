import { api, unwrap } from '@/lib/api-client';
import type { AvailableSeatsResponse, Id } from '@/lib/api/types';

/** GET /v1/organizations/{id}/availableSeats, checked before the add-user form opens. */
export function getAvailableSeats(organizationId: Id) {
  return unwrap(api.GET('/v1/organizations/{id}/availableSeats', { params: { path: { id: organizationId } } })) as Promise<AvailableSeatsResponse>;
}

export function getAvailableSeatsQueryOptions(organizationId: Id) {
  return {
    queryKey: ['organizations', String(organizationId), 'availableSeats'] as const,
    queryFn: () => getAvailableSeats(organizationId),
    staleTime: 0,
  };
}
