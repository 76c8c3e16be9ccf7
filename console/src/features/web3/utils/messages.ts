/** The web3 screens' texts: the spec's where it words them (spec 001 §8), ours for the rules of §5. */
export const WEB3_MESSAGES = {
  collectionCreated: 'Collection created successfully!',
  addressRequired: 'Contract address is required',
  addressFormat: 'Contract address must be exactly 42 letters and digits',
  slugRequired: 'Slug name is required',
  slugFormat: 'Slug name must contain only letters and digits',
  chainRequired: 'Chain is required',
  notAddedTitle: 'This contract cannot be added',
  noOverlap: "No collection shares 10 % or more of this collection's holders.",
  noTransfers: 'No transfers stored for this collection yet.',
} as const;
