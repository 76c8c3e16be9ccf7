import { describe, expect, it } from 'vitest';

import { actorOf, describeActivity } from '@/features/admin/utils/activity';

describe('activity in words', () => {
  it('says what was acted on, with the kind of item', () => {
    expect(describeActivity({ action: 'deleted', entity_name: 'Q3 sales' }, 'datasets')).toBe('deleted dataset Q3 sales');
    expect(describeActivity({ action: 'created', entity_name: 'Churn' }, 'applications')).toBe('created insight Churn');
    expect(describeActivity({ action: 'unshared', entity_name: 'Pipeline' }, 'projects')).toBe('stopped sharing project Pipeline');
  });

  it('uses human words for the codes, never the code itself', () => {
    expect(describeActivity({ action: '2fa_disabled', entity_name: 'Ada Lovelace' }, 'users')).toBe('disabled two-factor authentication for user Ada Lovelace');
    expect(describeActivity({ action: 'password_changed', entity_name: 'Ada Lovelace' }, 'users')).toBe('changed the password for user Ada Lovelace');
    expect(describeActivity({ action: 'owner_migrated', entity_name: 'Bob' }, 'users')).toBe('moved the assets for user Bob');
    // A code not mapped yet still reads as words.
    expect(describeActivity({ action: 'quota_raised', entity_name: 'Bob' }, 'users')).toBe('quota raised user Bob');
  });

  it('never leaves a name blank', () => {
    expect(describeActivity({ action: 'deleted', entity_name: '  ' }, 'datasets')).toBe('deleted an unnamed dataset');
    expect(actorOf({ first_name: 'Ada', last_name: null, email: 'ada@x.io' })).toBe('Ada');
    expect(actorOf({ first_name: null, last_name: null, email: 'ada@x.io' })).toBe('ada@x.io');
    expect(actorOf({ first_name: null, last_name: null, email: null })).toBe('A removed user');
  });
});
