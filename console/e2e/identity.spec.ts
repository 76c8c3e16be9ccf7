import { expect, type Page, test } from '@playwright/test';

import { freshCode } from './totp';

/**
 * Identity and administration end to end, against the running API:
 * the admin creates a user; the user signs in, enables 2FA with a code computed here, changes
 * the password; the admin switches Projects off for the developer role; the user signs in again
 * through the verify modal, the Projects section is gone and the API refuses the area.
 */
const adminEmail = process.env.LUDIS_E2E_ADMIN_EMAIL ?? 'admin@ludis.local';
const adminPassword = process.env.LUDIS_E2E_ADMIN_PASSWORD ?? '';
const userEmail = `e2e-${Date.now()}@example.com`;
const firstPassword = 'first-pass-1';
const secondPassword = 'second-pass-2';

let shot = 0;
async function screen(page: Page, name: string) {
  shot += 1;
  await page.screenshot({ path: `e2e-screenshots/${String(shot).padStart(2, '0')}-${name}.png`, fullPage: true });
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

async function signOut(page: Page) {
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

function sidebar(page: Page) {
  return page.getByRole('navigation', { name: 'Main navigation' });
}

test.describe.serial('identity and administration', () => {
  test.skip(!adminPassword, 'set LUDIS_E2E_ADMIN_PASSWORD to the seeded superadmin password');

  let organizationId = '';
  let secret = '';
  let usedStep: number | null = null;

  test('the guard sends a visitor to sign in', async ({ page }) => {
    await page.goto('/admin-portal');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    await screen(page, 'sign-in');
  });

  test('the admin signs in and creates a user', async ({ page }) => {
    await signIn(page, adminEmail, adminPassword);
    await expect(page.getByText('Signed in successfully!')).toBeVisible();
    await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
    await screen(page, 'home-admin');

    await page.goto('/admin-portal');
    await expect(page.getByRole('heading', { name: 'Admin portal' })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Totals' })).toBeVisible();
    await screen(page, 'admin-portal');

    await page.goto('/organizations');
    const demo = page.getByRole('row').filter({ hasText: 'Demo' });
    await expect(demo).toBeVisible();
    await screen(page, 'organizations');
    await demo.getByRole('link', { name: /^Users of / }).click();
    await expect(page).toHaveURL(/\/organizations\/[^/]+\/users$/);
    organizationId = page.url().split('/organizations/')[1].split('/')[0];
    await screen(page, 'users');

    // A previous run switched Projects off for developers: start from it on.
    await page.goto(`/organizations/${organizationId}/flight-settings`);
    const projects = page.getByRole('checkbox', { name: 'Projects' });
    await expect(projects).toBeVisible();
    if (!(await projects.isChecked())) {
      await projects.check();
      await page.getByRole('button', { name: 'Apply Changes' }).click();
      await expect(page.getByText('Flighting configuration updated!')).toBeVisible();
    }
    await page.goto(`/organizations/${organizationId}/users`);

    await page.getByRole('button', { name: 'Add User' }).click();
    await expect(page).toHaveURL(/\/users\/new$/);
    await page.getByLabel(/^First name/).fill('Erin');
    await page.getByLabel(/^Last name/).fill('Tester');
    await page.getByLabel(/^Email/).fill(userEmail);
    await page.getByRole('textbox', { name: /^Password/ }).fill(firstPassword);
    await screen(page, 'user-new');
    await page.getByRole('button', { name: 'Create user' }).click();
    await expect(page.getByText('User created successfully!')).toBeVisible();
    await expect(page.getByRole('cell', { name: userEmail, exact: true })).toBeVisible();
    await signOut(page);
  });

  test('the user signs in, enables 2FA and changes the password', async ({ page }) => {
    await signIn(page, userEmail, firstPassword);
    await expect(page.getByRole('heading', { name: 'Welcome, Erin!' })).toBeVisible();
    await expect(sidebar(page).getByRole('link', { name: 'Projects' })).toBeVisible();
    await screen(page, 'home-user');

    await sidebar(page).getByRole('link', { name: 'Account' }).click();
    await expect(page.getByRole('heading', { name: 'Profile settings' })).toBeVisible();
    await screen(page, 'profile');
    await page.getByRole('button', { name: 'Enable' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enable two-factor authentication' });
    await expect(dialog.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Show secret key' }).click();
    secret = await dialog.getByRole('textbox', { name: 'Secret key' }).inputValue();
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    await screen(page, 'two-factor-enable');
    const { code, step } = await freshCode(secret, usedStep);
    usedStep = step;
    await dialog.getByLabel(/Verification code/).fill(code);
    await dialog.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByText('2FA Verification Successful')).toBeVisible();
    await expect(page.getByText('Active', { exact: true })).toBeVisible();
    await screen(page, 'two-factor-active');

    // Reachable without opening 'Advanced'.
    await expect(page.getByRole('button', { name: 'Advanced' })).toHaveAttribute('aria-expanded', 'false');
    await page.getByRole('link', { name: 'Change Password' }).click();
    await expect(page).toHaveURL(/\/changepassword$/);
    await page.getByRole('textbox', { name: /^Current password/ }).fill(firstPassword);
    await page.getByRole('textbox', { name: /^New password/ }).fill('short');
    await page.getByRole('textbox', { name: /^Confirm password/ }).fill('short');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Password must be at least 6 characters long')).toBeVisible();
    await page.getByRole('textbox', { name: /^New password/ }).fill(secondPassword);
    await page.getByRole('textbox', { name: /^Confirm password/ }).fill(secondPassword);
    await screen(page, 'change-password');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByRole('dialog', { name: 'Password Updated' })).toBeVisible();
    await screen(page, 'password-updated');
    await page.getByRole('button', { name: 'OK' }).click();
    await expect(page).toHaveURL(/\/profile-setting$/);
    await signOut(page);
  });

  test('the admin switches Projects off for developers', async ({ page }) => {
    await signIn(page, adminEmail, adminPassword);
    await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
    await page.goto(`/organizations/${organizationId}/flight-settings`);
    await expect(page.getByRole('link', { name: 'Admin Page' })).toHaveAttribute('href', `/organizations/${organizationId}/users`);
    const projects = page.getByRole('checkbox', { name: 'Projects' });
    await expect(projects).toBeChecked();
    await projects.uncheck();
    await screen(page, 'flight-settings');
    await page.getByRole('button', { name: 'Apply Changes' }).click();
    await expect(page.getByText('Flighting configuration updated!')).toBeVisible();
    await signOut(page);
  });

  test('the user signs in through the verify modal; Projects is gone and the API refuses it', async ({ page }) => {
    await signIn(page, userEmail, secondPassword);
    await expect(page).toHaveURL(/\/two-factor-auth-verify$/);
    // The sign-in page's card, with its logo.
    const dialog = page.getByTestId('auth-card');
    await expect(dialog.getByRole('heading', { name: 'Verify your sign-in' })).toBeVisible();
    await expect(dialog.getByRole('img', { name: 'Ludis' })).toBeVisible();
    await screen(page, 'two-factor-verify');
    const { code, step } = await freshCode(secret, usedStep);
    usedStep = step;
    await dialog.getByLabel(/Verification code/).fill(code);
    await dialog.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByText('2FA Verified')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Welcome, Erin!' })).toBeVisible();
    await expect(sidebar(page).getByRole('link', { name: 'Insights' })).toBeVisible();
    await expect(sidebar(page).getByRole('link', { name: 'Projects' })).toHaveCount(0);
    await screen(page, 'home-without-projects');

    const token = await page.evaluate(() => window.localStorage.getItem('token'));
    const refused = await page.request.get('/v2/projects', { headers: { Authorization: `Bearer ${token}` } });
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toMatchObject({ success: false, code: 'feature_disabled' });
  });
});
