/**
 * Wire types of the sharing calls, written from the issue-5 contract until api/openapi.json
 * describes them.
 */
import type { AccessLevel, EntityType } from '@/config/constants';

export type SharePerson = {
  uid: string;
  email: string;
  first_name?: string | null;
  last_name?: string | null;
  photo_url?: string | null;
};

export type ShareEntry = {
  id: string;
  to_entity_type: 'User' | 'Organization';
  to_entity_id: string;
  to_entity_uid: string;
  email: string;
  first_name?: string | null;
  last_name?: string | null;
  photo_url?: string | null;
  access_level: AccessLevel;
  /** Declared in the resource's `spec.sharing`: not changeable here. */
  managed: boolean;
};

export type SharedWithResponse = {
  success: boolean;
  entity_id: string;
  entity_type: EntityType;
  access_level: AccessLevel;
  can_share: boolean;
  levels: AccessLevel[];
  owner: SharePerson | null;
  shares: ShareEntry[];
  organization: { id: string; name: string; access_level: AccessLevel | null; managed: boolean } | null;
  members: (SharePerson & { access_level: AccessLevel | null })[];
};

export type ShareChange = {
  share_type: 'share' | 'unshare';
  access_level: AccessLevel;
  to_entity_type: 'User' | 'Organization';
  email?: string;
  to_entity_uid?: string;
};

export type ShareRequest = {
  share: { entity_id: string; entity_type: EntityType; shares: ShareChange[]; directory_id?: string };
};

export type ShareResponse = { success: boolean; message: string };
