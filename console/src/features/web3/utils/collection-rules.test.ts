import { describe, expect, it } from 'vitest';

import { chainError, collectionErrors, contractAddressError, hasErrors, slugError } from '@/features/web3/utils/collection-rules';

const address = `0x${'a1B2c3D4e5'.repeat(4)}`;

describe('the add-collection rules (spec 001 §5)', () => {
  it('contract address: required, letters and digits only, exactly 42 characters', () => {
    expect(address).toHaveLength(42);
    expect(contractAddressError(address)).toBeNull();
    expect(contractAddressError(`  ${address} `)).toBeNull();
    expect(contractAddressError('')).toBe('Contract address is required');
    expect(contractAddressError('   ')).toBe('Contract address is required');
    expect(contractAddressError(address.slice(0, 41))).toBe('Contract address must be exactly 42 letters and digits');
    expect(contractAddressError(`${address}0`)).toBe('Contract address must be exactly 42 letters and digits');
    expect(contractAddressError(`0x-${address.slice(3)}`)).toBe('Contract address must be exactly 42 letters and digits');
    expect(contractAddressError(`0x ${address.slice(3)}`)).toBe('Contract address must be exactly 42 letters and digits');
  });

  it('slug name: required, letters and digits only', () => {
    expect(slugError('Lighthouses2')).toBeNull();
    expect(slugError('')).toBe('Slug name is required');
    expect(slugError('  ')).toBe('Slug name is required');
    for (const bad of ['light-houses', 'light houses', 'light_houses', 'phare✓']) {
      expect(slugError(bad)).toBe('Slug name must contain only letters and digits');
    }
  });

  it('chain: required, ETHEREUM or POLYGON', () => {
    expect(chainError('ETHEREUM')).toBeNull();
    expect(chainError('POLYGON')).toBeNull();
    expect(chainError(null)).toBe('Chain is required');
    expect(chainError('SOLANA')).toBe('Chain is required');
  });

  it('the form may be sent only when every rule holds', () => {
    const ok = collectionErrors({ contractAddress: address, slug: 'Phare', chain: 'POLYGON' });
    expect(ok).toEqual({ contractAddress: null, slug: null, chain: null });
    expect(hasErrors(ok)).toBe(false);
    const bad = collectionErrors({ contractAddress: '', slug: 'Phare', chain: null });
    expect(bad).toEqual({ contractAddress: 'Contract address is required', slug: null, chain: 'Chain is required' });
    expect(hasErrors(bad)).toBe(true);
  });
});
