/**
 * HAND-TYPED, TEMPORARY: the console's one client (`api`, lib/api-client.ts: same transport, token
 * and error handling) seen through the web3 paths of docs/contracts/web3.md, which
 * api/openapi.json does not document yet. When it does: `npm run gen:api`, use `api` in the
 * fetchers, name the schemas in lib/api/types.ts and delete this file and types.ts.
 */
import type { Client } from 'openapi-fetch';

import type {
  AddCollectionBody,
  Bubblewrap,
  CollectionAdded,
  CollectionsPage,
  CollectionsQuery,
  ContractValidation,
  Starmap,
  ValidateContractBody,
} from '@/features/web3/api/types';
import { api } from '@/lib/api-client';
import type { components } from '@/lib/api/schema';

type ErrorBody = components['schemas']['ErrorBody'];

/* ---- The paths, in openapi-typescript's shape ---- */

type Json<T> = { headers: { [name: string]: unknown }; content: { 'application/json': T } };
type Params<Q, P> = ([Q] extends [never] ? { query?: never } : { query?: Q }) &
  ([P] extends [never] ? { path?: never } : { path: P }) & { header?: never; cookie?: never };
type Operation<R, P = never, Q = never, B = never> = { parameters: Params<Q, P> } & ([B] extends [never]
  ? { requestBody?: never }
  : { requestBody: { content: { 'application/json': B } } }) & { responses: { 200: Json<R>; 201: Json<R>; default: Json<ErrorBody> } };
type NoPathItem = {
  parameters: { query?: never; header?: never; path?: never; cookie?: never };
  get?: never;
  put?: never;
  post?: never;
  delete?: never;
  options?: never;
  head?: never;
  patch?: never;
  trace?: never;
};
type PathItem<Ops> = Omit<NoPathItem, keyof Ops> & Ops;

type Address = { contractAddress: string };
type Slug = { slug: string };

export type Web3Paths = {
  '/v1/web3/collections': PathItem<{ get: Operation<CollectionsPage, never, CollectionsQuery> }>;
  '/v1/web3/validateContract/{contractAddress}': PathItem<{ post: Operation<ContractValidation, Address, never, ValidateContractBody> }>;
  '/v1/web3/addCollection/{contractAddress}': PathItem<{ post: Operation<CollectionAdded, Address, never, AddCollectionBody> }>;
  '/v1/web3/starmap': PathItem<{ get: Operation<Starmap, never, Slug> }>;
  '/v1/web3/bubblewrap': PathItem<{ get: Operation<Bubblewrap, never, Slug> }>;
};

/** The console's client, typed by the contract's web3 paths (see above: temporary). */
export const web3Api = api as unknown as Client<Web3Paths>;
