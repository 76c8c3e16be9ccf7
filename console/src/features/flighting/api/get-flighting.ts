import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';
import type { Flighting, FlightingResponse, Id } from '@/lib/api/types';
import { readPersistedState, updatePersistedState } from '@/lib/storage';

/** GET /v1/flighting (param organization). The answer is persisted (spec 000 §9). */
export async function getFlighting(organization: Id | undefined, signal?: AbortSignal) {
  const data = await unwrap(api.GET('/v1/flighting', { params: { query: { organization } }, signal }));
  if (organization === undefined) updatePersistedState({ flighting: data.flightings });
  return data;
}

function persisted(): FlightingResponse | undefined {
  const f = readPersistedState().flighting;
  return Array.isArray(f)
    ? { success: true, message: '', organization: '', flightings: f as Flighting[], editable_roles: [] }
    : undefined;
}

/** `organization` undefined = the caller's own organization. */
export function getFlightingQueryOptions(organization?: Id) {
  return queryOptions({
    queryKey: organization === undefined ? ['flighting'] : ['flighting', String(organization)],
    queryFn: ({ signal }) => getFlighting(organization, signal),
  });
}

export function useFlighting(organization?: Id, options: { enabled?: boolean } = {}) {
  return useQuery({
    ...getFlightingQueryOptions(organization),
    placeholderData: organization === undefined ? persisted() : undefined,
    enabled: options.enabled ?? true,
  });
}
