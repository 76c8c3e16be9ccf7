import { describe, expect, it } from 'vitest';

import { actorOf, describeActivity } from '@/features/admin/utils/activity';
import type { ActivityAction, ActivityEntity } from '@/lib/api/types';

const row = (action: ActivityAction, entity_type: ActivityEntity, entity_name: string, entity_id = '3f2a9c1b-77aa-4a4e-9e0f-0123456789ab') => ({
  action,
  entity_type,
  entity_name,
  entity_id,
});

describe('activity in words', () => {
  it('says what was acted on, with the kind the API sends for each row', () => {
    expect(describeActivity(row('deleted', 'datasets', 'Q3 sales'))).toBe('deleted dataset Q3 sales');
    expect(describeActivity(row('created', 'applications', 'Churn'))).toBe('created insight Churn');
    expect(describeActivity(row('unshared', 'projects', 'Pipeline'))).toBe('stopped sharing project Pipeline');
    expect(describeActivity(row('uploaded', 'datasets', 'Q3 sales'))).toBe('uploaded files to dataset Q3 sales');
    expect(describeActivity(row('updated', 'flighting', 'Acme'))).toBe('changed the flighting of Acme');
  });

  it('uses human words for the codes, never the code itself', () => {
    expect(describeActivity(row('2fa_disabled', 'users', 'ada@acme.io'))).toBe('turned off two-factor authentication for user ada@acme.io');
    expect(describeActivity(row('password_changed', 'users', 'ada@acme.io'))).toBe('changed the password of user ada@acme.io');
    expect(describeActivity(row('2fa_required', 'organizations', 'Acme'))).toBe('required two-factor authentication in organization Acme');
    expect(describeActivity(row('owner_migrated', 'applications', 'ann@acme.io -> bob@acme.io'))).toBe(
      'moved the owner of insights ann@acme.io -> bob@acme.io',
    );
    expect(describeActivity(row('deleted files', 'datasets', 'Sales'))).toBe('deleted files from dataset Sales');
  });

  it('never leaves a name blank: an item without a kept name is named by its kind and id', () => {
    expect(describeActivity(row('deleted', 'datasets', '  '))).toBe('deleted dataset (id 3f2a9c1b)');
    expect(actorOf({ first_name: 'Ada', last_name: null, email: 'ada@x.io' })).toBe('Ada');
    expect(actorOf({ first_name: null, last_name: null, email: 'ada@x.io' })).toBe('ada@x.io');
    expect(actorOf({ first_name: null, last_name: null, email: null })).toBe('A removed user');
  });
});
