import type { ActivityAction, ActivityEntity, ActivityRow } from '@/lib/api/types';

/** What one item of each kind is called in a sentence, and several of them. */
const NOUNS: Record<ActivityEntity, { one: string; many: string }> = {
  applications: { one: 'insight', many: 'insights' },
  projects: { one: 'project', many: 'projects' },
  datasets: { one: 'dataset', many: 'datasets' },
  workflows: { one: 'workflow', many: 'workflows' },
  notebooks: { one: 'notebook', many: 'notebooks' },
  users: { one: 'user', many: 'users' },
  organizations: { one: 'organization', many: 'organizations' },
  flighting: { one: 'flighting', many: 'flighting' },
};

/**
 * The API's actions (domain::ActivityAction) in words, each the phrase before the item: 'deleted'
 * dataset Q3, 'turned off two-factor authentication for' user ann@…. Typed by the API's enum, so a
 * new action does not compile until it is worded here.
 */
const ACTIONS: Record<ActivityAction, string> = {
  created: 'created',
  updated: 'changed',
  deleted: 'deleted',
  shared: 'shared',
  unshared: 'stopped sharing',
  uploaded: 'uploaded files to',
  'deleted files': 'deleted files from',
  committed: 'committed a change to',
  restarted: 'restarted',
  stopped: 'stopped',
  redeployed: 'redeployed',
  password_changed: 'changed the password of',
  '2fa_disabled': 'turned off two-factor authentication for',
  '2fa_required': 'required two-factor authentication in',
  '2fa_not_required': 'stopped requiring two-factor authentication in',
  owner_migrated: 'moved the owner of',
};

/** Who did it: their name, else their e-mail, else that the account is gone. */
export function actorOf(row: Pick<ActivityRow, 'first_name' | 'last_name' | 'email'>): string {
  return [row.first_name, row.last_name].filter(Boolean).join(' ') || row.email || 'A removed user';
}

/** How many characters of an id name an item whose name was not kept. */
const SHORT_ID = 8;

/** The item acted on, with its kind: 'dataset Q3 sales', 'the flighting of Acme'. */
function itemOf(row: Pick<ActivityRow, 'action' | 'entity_type' | 'entity_name' | 'entity_id'>): string {
  const noun = NOUNS[row.entity_type];
  // The name it had at the time of the action; without one, its id.
  const name = row.entity_name.trim() || `(id ${row.entity_id.slice(0, SHORT_ID)})`;
  if (row.entity_type === 'flighting') return `the flighting of ${name}`;
  // An ownership move names the two people ('ann@… -> bob@…'), for every item of a kind.
  if (row.action === 'owner_migrated') return `${noun.many} ${name}`;
  return `${noun.one} ${name}`;
}

/**
 * What was done to what, in words: 'deleted dataset Q3 sales', 'turned off two-factor
 * authentication for user ann@acme.io', 'changed the flighting of Acme'; never a code or a blank.
 */
export function describeActivity(row: Pick<ActivityRow, 'action' | 'entity_type' | 'entity_name' | 'entity_id'>): string {
  return `${ACTIONS[row.action]} ${itemOf(row)}`;
}
