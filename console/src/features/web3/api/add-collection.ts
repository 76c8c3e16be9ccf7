import { useMutation, useQueryClient } from '@tanstack/react-query';

import { web3Keys } from '@/features/web3/api/keys';
import type { Chain } from '@/features/web3/api/types';
import { api, unwrap } from '@/lib/api-client';

export type AddCollectionInput = { contractAddress: string; slug: string; chain: Chain };

/** POST /v1/web3/addCollection/{contractAddress} {gcp_slug, chain}: 201, the collection `running`. */
export function addCollection({ contractAddress, slug, chain }: AddCollectionInput) {
  return unwrap(
    api.POST('/v1/web3/addCollection/{contractAddress}', { params: { path: { contractAddress } }, body: { gcp_slug: slug, chain } }),
  );
}

export function useAddCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addCollection,
    // The form shows the refusal itself.
    meta: { silent: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: web3Keys.collections() }),
  });
}
