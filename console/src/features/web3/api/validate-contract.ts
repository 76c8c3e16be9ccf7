import { useMutation } from '@tanstack/react-query';

import type { Chain } from '@/features/web3/api/types';
import { api, unwrap } from '@/lib/api-client';

export type ValidateContractInput = { contractAddress: string; chain: Chain };

/**
 * POST /v1/web3/validateContract/{contractAddress} {chain}: whether a collection is there. A
 * contract that is not one is a 200 with `valid: false` and the reason in `message`.
 */
export function validateContract({ contractAddress, chain }: ValidateContractInput) {
  return unwrap(api.POST('/v1/web3/validateContract/{contractAddress}', { params: { path: { contractAddress } }, body: { chain } }));
}

export function useValidateContract() {
  return useMutation({
    mutationFn: validateContract,
    // The form shows the refusal itself.
    meta: { silent: true },
  });
}
