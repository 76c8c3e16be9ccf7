import { expect, type Page, test } from '@playwright/test';

import { freshCode } from './totp';

/**
 * A superadmin adds an organization from the admin portal, requires 2FA for it and adds a user;
 * that user's first sign-in goes to the enable page, enrols with a computed code and lands home.
 */
const adminEmail = process.env.LUDIS_E2E_ADMIN_EMAIL ?? 'admin@ludis.local';
const adminPassword = process.env.LUDIS_E2E_ADMIN_PASSWORD ?? '';
const stamp = Date.now();
const orgName = `E2E Org ${stamp}`;
const userEmail = `e2e-org-${stamp}@example.com`;
const password = 'org-user-pass-1';

async function signIn(page: Page, email: string, pass: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password' }).fill(pass);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `e2e-screenshots/org-${name}.png`, fullPage: true });
}

test.describe.serial('an organization that requires 2FA', () => {
  test.skip(!adminPassword, 'set LUDIS_E2E_ADMIN_PASSWORD to the seeded superadmin password');

  test('the superadmin adds the organization, requires 2FA and adds a user', async ({ page }) => {
    await signIn(page, adminEmail, adminPassword);
    await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
    await page.goto('/admin-portal');
    await page.getByRole('link', { name: 'Add organization' }).click();
    await expect(page).toHaveURL(/\/organizations\/new\?from=admin-portal$/);
    await page.getByRole('button', { name: 'Create organization' }).click();
    await expect(page.getByText('Bucket is required')).toBeVisible();
    await page.getByLabel(/^Name/).fill(orgName);
    await page.getByLabel(/^Admin email/).fill(`boss-${stamp}@example.com`);
    await page.getByRole('combobox', { name: 'Bucket' }).click();
    await page.getByRole('option').first().click();
    await shot(page, 'new');
    await page.getByRole('button', { name: 'Create organization' }).click();
    await expect(page.getByText('Organization created successfully!')).toBeVisible();
    await expect(page).toHaveURL(/\/admin-portal$/);

    await page.goto('/organizations');
    const row = page.getByRole('row').filter({ hasText: orgName });
    await row.getByRole('link', { name: `Edit ${orgName}` }).click();
    await page.getByRole('switch', { name: /Require two-factor/ }).check();
    await expect(page.getByText('2FA Status Updated Successfully!')).toBeVisible();
    await shot(page, 'edit');

    await page.goto('/organizations');
    await page.getByRole('row').filter({ hasText: orgName }).getByRole('link', { name: `Users of ${orgName}` }).click();
    await expect(page.getByText('No users yet')).toBeVisible();
    await page.getByRole('button', { name: 'Add User' }).click();
    await page.getByLabel(/^First name/).fill('Olga');
    await page.getByLabel(/^Last name/).fill('Member');
    await page.getByLabel(/^Email/).fill(userEmail);
    await page.getByRole('textbox', { name: /^Password/ }).fill(password);
    await page.getByRole('button', { name: 'Create user' }).click();
    await expect(page.getByText('User created successfully!')).toBeVisible();
  });

  test('the new user must enrol in 2FA before anything else', async ({ page }) => {
    await signIn(page, userEmail, password);
    await expect(page).toHaveURL(/\/two-factor-auth-enable$/);
    await page.goto('/home');
    await expect(page).toHaveURL(/\/two-factor-auth-enable$/);
    const dialog = page.getByRole('dialog', { name: 'Enable two-factor authentication' });
    await dialog.getByRole('button', { name: 'Show secret key' }).click();
    const secret = await dialog.getByRole('textbox', { name: 'Secret key' }).inputValue();
    await shot(page, 'enable');
    const { code } = await freshCode(secret, null);
    await dialog.getByLabel(/Verification code/).fill(code);
    await dialog.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByText('2FA Verification Successful')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Welcome, Olga!' })).toBeVisible();
    await shot(page, 'home');
  });
});
