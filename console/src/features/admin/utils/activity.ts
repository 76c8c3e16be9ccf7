import type { MetricEntity } from '@/features/admin/api/get-entity-metrics';
import type { ActivityRow } from '@/lib/api/types';

/** What one item of each kind is called in a sentence. */
const NOUNS: Record<MetricEntity, string> = {
  users: 'user',
  applications: 'insight',
  projects: 'project',
  datasets: 'dataset',
  workflows: 'workflow',
};

/**
 * The API's action codes (api/src/db/activity.rs and the routes that record them) in words: a
 * verb, and whether the item follows it directly ('deleted dataset Q3') or after 'for'
 * ('disabled two-factor authentication for user Ada').
 */
const ACTIONS: Record<string, { verb: string; forItem?: boolean }> = {
  created: { verb: 'created' },
  updated: { verb: 'updated' },
  deleted: { verb: 'deleted' },
  shared: { verb: 'shared' },
  unshared: { verb: 'stopped sharing' },
  uploaded: { verb: 'uploaded' },
  redeployed: { verb: 'redeployed' },
  password_changed: { verb: 'changed the password', forItem: true },
  '2fa_disabled': { verb: 'disabled two-factor authentication', forItem: true },
  '2fa_enabled': { verb: 'enabled two-factor authentication', forItem: true },
  '2fa_required': { verb: 'required two-factor authentication', forItem: true },
  '2fa_not_required': { verb: 'stopped requiring two-factor authentication', forItem: true },
  owner_migrated: { verb: 'moved the assets', forItem: true },
};

/** An action code nobody mapped yet still reads as words: 'owner_changed' → 'owner changed'. */
function verbOf(action: string) {
  return ACTIONS[action] ?? { verb: action.replace(/[_-]+/g, ' ').trim() || 'did something' };
}

/** Who did it: their name, else their e-mail, else that the account is gone. */
export function actorOf(row: Pick<ActivityRow, 'first_name' | 'last_name' | 'email'>): string {
  return [row.first_name, row.last_name].filter(Boolean).join(' ') || row.email || 'A removed user';
}

/**
 * What was done to what, in words: 'deleted dataset Q3 sales', 'disabled two-factor
 * authentication for user Ada'; an item without a name is still named by its kind.
 */
export function describeActivity(row: Pick<ActivityRow, 'action' | 'entity_name'>, entity: MetricEntity): string {
  const { verb, forItem } = verbOf(row.action);
  const name = row.entity_name?.trim();
  const item = name ? `${NOUNS[entity]} ${name}` : `an unnamed ${NOUNS[entity]}`;
  return forItem ? `${verb} for ${item}` : `${verb} ${item}`;
}
