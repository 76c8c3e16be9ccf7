// The web3 calls' types: the generated schemas of api/openapi.json (docs/contracts/web3.md).
import type { components, operations } from '@/lib/api/schema';

type Schemas = components['schemas'];

export type Chain = Schemas['Chain'];
export type ContractType = Schemas['ContractType'];
export type CollectionStatus = Schemas['CollectionStatus'];
export type CollectionView = Schemas['CollectionView'];
export type GraphNodeClass = Schemas['WalletClass'];
export type GraphNode = Schemas['GraphNode'];
export type GraphLink = Schemas['GraphLink'];
export type OverlapBubble = Schemas['OverlapBubble'];
export type CollectionsQuery = NonNullable<operations['list_collections']['parameters']['query']>;
export type CollectionsPage = Schemas['CollectionList'];
export type ValidateContractBody = Schemas['ValidateContractRequest'];
export type ContractValidation = Schemas['ContractValidation'];
export type AddCollectionBody = Schemas['AddCollectionRequest'];
export type CollectionAdded = Schemas['CollectionCreated'];
export type Starmap = Schemas['Starmap'];
export type Bubblewrap = Schemas['Bubblewrap'];
