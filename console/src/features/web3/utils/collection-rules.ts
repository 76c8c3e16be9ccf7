import { CHAINS, CONTRACT_ADDRESS_LENGTH } from '@/config/constants';
import type { Chain } from '@/features/web3/api/types';
import { WEB3_MESSAGES } from '@/features/web3/utils/messages';

export type CollectionFields = { contractAddress: string; slug: string; chain: string | null };
export type CollectionErrors = { contractAddress: string | null; slug: string | null; chain: string | null };

const LETTERS_AND_DIGITS = /^[A-Za-z0-9]+$/;

/** Contract address: required, letters and digits only, exactly 42 characters (spec 001 §5). */
export function contractAddressError(value: string): string | null {
  const v = value.trim();
  if (!v) return WEB3_MESSAGES.addressRequired;
  return v.length === CONTRACT_ADDRESS_LENGTH && LETTERS_AND_DIGITS.test(v) ? null : WEB3_MESSAGES.addressFormat;
}

/** Slug name: required, letters and digits only (spec 001 §5). */
export function slugError(value: string): string | null {
  const v = value.trim();
  if (!v) return WEB3_MESSAGES.slugRequired;
  return LETTERS_AND_DIGITS.test(v) ? null : WEB3_MESSAGES.slugFormat;
}

export function isChain(value: string | null): value is Chain {
  return (CHAINS as readonly string[]).includes(value ?? '');
}

/** Chain: required, ETHEREUM or POLYGON (spec 001 §5). */
export function chainError(value: string | null): string | null {
  return isChain(value) ? null : WEB3_MESSAGES.chainRequired;
}

/** Every rule of the add-collection form; all null when it may be sent. */
export function collectionErrors(v: CollectionFields): CollectionErrors {
  return { contractAddress: contractAddressError(v.contractAddress), slug: slugError(v.slug), chain: chainError(v.chain) };
}

export function hasErrors(e: CollectionErrors): boolean {
  return Boolean(e.contractAddress || e.slug || e.chain);
}
