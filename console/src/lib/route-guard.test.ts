import { describe, expect, it } from 'vitest';

import type { Session } from '@/lib/auth';
import { guardRedirect } from '@/lib/route-guard';
import { makeUser } from '@/testing/session';

const user = makeUser();
const signedOut: Session = { token: null, refreshToken: null, user: null, verified2fa: false };
const signedIn: Session = { token: 't', refreshToken: 'r', user, verified2fa: false };
const needsVerify: Session = { ...signedIn, user: { ...user, enabled_2fa: true, confirmed_2fa: true } };
const verified: Session = { ...needsVerify, verified2fa: true };
const mustEnrol: Session = { ...signedIn, user: { ...user, is_2fa_required: true, enabled_2fa: false } };

describe('route guard', () => {
  it.each([
    // [session, path, redirect]
    ['signed out', signedOut, '/login', null],
    ['signed out', signedOut, '/register', null],
    ['signed out', signedOut, '/resetpassword', null],
    ['signed out', signedOut, '/forgot_password', null],
    ['signed out', signedOut, '/', '/login'],
    ['signed out', signedOut, '/home', '/login'],
    ['signed out', signedOut, '/admin-portal', '/login'],
    ['signed out', signedOut, '/two-factor-auth-verify', '/login'],
    ['signed in', signedIn, '/login', '/'],
    ['signed in', signedIn, '/register', '/'],
    ['signed in', signedIn, '/two-factor-auth-verify', '/'],
    ['signed in', signedIn, '/profile-setting', null],
    ['signed in', signedIn, '/organizations/3/users/', null],
    ['2FA pending', needsVerify, '/', '/two-factor-auth-verify'],
    ['2FA pending', needsVerify, '/login', '/two-factor-auth-verify'],
    ['2FA pending', needsVerify, '/two-factor-auth-verify', null],
    ['2FA verified', verified, '/two-factor-auth-verify', '/'],
    ['2FA verified', verified, '/home', null],
    ['org requires 2FA', mustEnrol, '/home', '/two-factor-auth-enable'],
    ['org requires 2FA', mustEnrol, '/two-factor-auth-enable', null],
    ['org requires 2FA', mustEnrol, '/two-factor-auth-verify', '/two-factor-auth-enable'],
  ])('%s: %s', (_label, _session, path, expected) => {
    const session = _session as Session;
    expect(guardRedirect(path as string, session)).toBe(expected);
  });
});
