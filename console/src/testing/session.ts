import type { Organization, User } from '@/lib/api/types';
import { setSession } from '@/lib/auth';

export function makeUser(patch: Partial<User> = {}): User {
  return {
    uid: 'u-1',
    id: '1',
    email: 'ada@example.com',
    first_name: 'Ada',
    last_name: 'Lovelace',
    role: 'developer',
    status: 'active',
    organization: '7',
    timezone: 'UTC',
    date_format: 'MM/DD/YY',
    has_git_token: false,
    enabled_2fa: false,
    confirmed_2fa: false,
    is_2fa_required: false,
    created_at: 0,
    updated_at: 0,
    ...patch,
  };
}

export function signIn(patch: Partial<User> = {}, verified2fa = false) {
  setSession({ token: 'access-1', refreshToken: 'refresh-1', user: makeUser(patch), verified2fa });
}

export function makeOrganization(patch: Partial<Organization> = {}): Organization {
  return {
    id: '7',
    name: 'Acme',
    slug: 'acme',
    namespace: 'ludis-acme',
    admin_email: 'boss@acme.io',
    description: '',
    tier: 'paid',
    max_seats: 5,
    is_2fa_required: false,
    created_at: 0,
    idle_minutes: 60,
    allow_always_on: false,
    active_users: 0,
    flightings: [],
    ...patch,
  };
}
