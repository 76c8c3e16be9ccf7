import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { DashboardLayout } from '@/components/layout/dashboard-layout';
import { visibleSections } from '@/components/layout/nav-items';
import { NOTEBOOKS_DEPRECATION } from '@/config/constants';
import type { Flighting, Role } from '@/lib/api/types';
import { renderWithProviders } from '@/testing/render';
import { makeUser } from '@/testing/session';
import { user } from '@/testing/user';

const all: Role[] = ['developer', 'management', 'administrator', 'superadmin'];
const flags: Flighting[] = [
  { key: 'insights', name: 'Insights', active: true, user_roles: all },
  { key: 'projects', name: 'Projects', active: true, user_roles: ['administrator'] },
  { key: 'workflows', name: 'Workflows', active: false, user_roles: all },
  { key: 'datasets', name: 'Datasets', active: true, user_roles: all },
  { key: 'notebooks', name: 'Notebooks', active: true, user_roles: all },
];

describe('sidebar filtering', () => {
  it.each([
    ['developer', ['Home', 'Insights', 'Datasets', 'Web3', 'Notebooks']],
    ['administrator', ['Home', 'Insights', 'Projects', 'Datasets', 'Web3', 'Notebooks']],
  ] as const)('%s sees %j', (role, labels) => {
    expect(visibleSections(flags, makeUser({ role })).map((s) => s.label)).toEqual(labels);
  });

  it('a feature without a flag is not restricted (as in the API); before the flags load only Home and Web3 (no flag) show', () => {
    expect(visibleSections(flags.slice(0, 3), makeUser()).map((s) => s.label)).toEqual(['Home', 'Insights', 'Datasets', 'Web3', 'Notebooks']);
    expect(visibleSections(undefined, makeUser()).map((s) => s.label)).toEqual(['Home', 'Web3']);
  });

  it('a superadmin sees every section, even switched-off ones', () => {
    expect(visibleSections(flags, makeUser({ role: 'superadmin' })).map((s) => s.label)).toEqual([
      'Home',
      'Insights',
      'Projects',
      'Workflows',
      'Datasets',
      'Web3',
      'Notebooks',
    ]);
  });

  function renderLayout(role: Role, onLogout = vi.fn()) {
    renderWithProviders(
      <DashboardLayout
        user={makeUser({ role })}
        flightings={flags}
        supportEmail="help@ludis.test"
        documentationUrl="https://docs.example/ludis"
        onLogout={onLogout}
      >
        <p>content</p>
      </DashboardLayout>,
    );
    return within(screen.getByRole('navigation', { name: 'Main navigation' }));
  }

  it('renders only the allowed sections, tags Notebooks as deprecated, hides Admin from non-admins', () => {
    const nav = renderLayout('developer');
    expect(nav.getByRole('link', { name: /Insights/ })).toHaveAttribute('href', '/insights');
    expect(nav.queryByRole('link', { name: /Projects/ })).not.toBeInTheDocument();
    expect(nav.queryByRole('link', { name: /Workflows/ })).not.toBeInTheDocument();
    expect(nav.getByRole('link', { name: /Notebooks/ })).toHaveAttribute('href', '/projects');
    expect(nav.getByRole('link', { name: 'Web3' })).toHaveAttribute('href', '/crypto');
    expect(nav.getByLabelText(NOTEBOOKS_DEPRECATION)).toHaveTextContent('Deprecated');
    expect(NOTEBOOKS_DEPRECATION).toBe('Deprecated: You can continue to use Jupyter Notebooks but they are no longer supported');
    expect(nav.queryByRole('link', { name: 'Admin' })).not.toBeInTheDocument();
    expect(nav.getByRole('link', { name: 'Account' })).toHaveAttribute('href', '/profile-setting');
    expect(nav.getByRole('link', { name: 'Documentation' })).toHaveAttribute('href', 'https://docs.example/ludis');
  });

  it('shows Admin to administrators and superadmins', () => {
    expect(renderLayout('administrator').getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/admin-portal');
  });

  it('Support opens the dialog with the e-mail; Logout calls back', async () => {
    const onLogout = vi.fn();
    const nav = renderLayout('developer', onLogout);
    await user().click(nav.getByRole('button', { name: 'Support' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('For support, please email: help@ludis.test');
    await user().click(nav.getByRole('button', { name: 'Logout' }));
    expect(onLogout).toHaveBeenCalled();
  });

  it('the compact dropdown for small screens lists the same filtered entries', async () => {
    renderLayout('developer');
    await user().click(screen.getByRole('button', { name: 'Open navigation', hidden: true }));
    const menu = await screen.findByRole('menu', { hidden: true });
    const items = within(menu).getAllByRole('menuitem', { hidden: true }).map((i) => i.textContent?.replace('Deprecated', '').trim());
    expect(items).toEqual(['Home', 'Insights', 'Datasets', 'Web3', 'Notebooks', 'Support', 'Documentation', 'Account', 'Logout']);
  });
});
