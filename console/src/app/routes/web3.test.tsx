import { render, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';

import { AppProvider } from '@/app/provider';
import { createTestRouter } from '@/app/router';
import { type Handler, mockFetch, on } from '@/testing/fetch-mock';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';
import { collectionsPage, makeBubble, makeBubblewrap, makeCollection, makeStarmap } from '@/testing/web3';

const roles = ['developer', 'management', 'administrator', 'superadmin'];
const indexing = makeCollection({ name: 'Harbour Passes', gcp_slug: 'harbour', status: 'running', indexed_block: 30, target_block: 90 });
const indexed = makeCollection({ name: 'Ludis Lighthouses', gcp_slug: 'lighthouses' });

/** The shell's calls and the web3 answers; `first` answers before them. */
function api(...first: Handler[]) {
  return mockFetch(
    ...first,
    on('GET', '/v1/flighting', { body: { success: true, message: '', organization: '7', flightings: [], editable_roles: roles } }),
    on('GET', '/v1/config', { body: { success: true, config: { supportEmail: 'help@ludis.test', documentationUrl: 'https://docs.test', roles, photoUpload: true } } }),
    on('GET', '/v1/web3/collections', { body: collectionsPage([indexing, indexed]) }),
    on('GET', '/v1/web3/starmap', (call) => ({ body: makeStarmap(call.url.includes('harbour') ? indexing : indexed) })),
    on('GET', '/v1/web3/bubblewrap', { body: makeBubblewrap(indexed, [makeBubble({ collection_name: 'Ludis Lighthouses' })]) }),
  );
}

function renderAt(url: string) {
  const router = createTestRouter(url);
  render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return router;
}

const picker = () => screen.getByLabelText('Collection', { selector: 'input:not([type=hidden])' });
const web3Calls = (calls: { url: string }[]) => calls.map((c) => c.url).filter((u) => u.startsWith('/v1/web3/'));

describe('the web3 routes', () => {
  it.each([
    ['developer', '/collections'],
    ['developer', '/collections/new'],
    ['administrator', '/collections'],
    ['administrator', '/collections/new'],
  ] as const)('sends a %s home from %s before any web3 call', async (role, url) => {
    signIn({ role }, true);
    const calls = api();
    const router = renderAt(url);
    expect(await screen.findByRole('heading', { name: 'Welcome, Ada!' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(web3Calls(calls)).toEqual([]);
  });

  it("lists the collections for a superadmin (no longer 'coming soon'), from the Admin Page's tile", async () => {
    signIn({ role: 'superadmin' }, true);
    api();
    const router = renderAt('/manage-organizations');
    await user().click(await screen.findByRole('link', { name: /Manage Collections/ }));
    expect(await screen.findByRole('heading', { name: 'Collections' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/collections');
    expect(screen.queryByText(/not available yet/)).not.toBeInTheDocument();
    expect(await screen.findByRole('img', { name: 'Indexing: block 30 of 90' })).toBeInTheDocument();
    await user().click(screen.getByRole('link', { name: 'Add Collection' }));
    expect(await screen.findByRole('textbox', { name: /^Contract address/ })).toBeInTheDocument();
    const crumbs = within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
    expect(crumbs.getByRole('link', { name: 'Collections' })).toHaveAttribute('href', '/collections');
  });

  it('gives every signed-in user the Web3 page in the sidebar, the newest indexed collection first', async () => {
    signIn({ role: 'developer' }, true);
    const calls = api();
    renderAt('/home');
    const nav = within(await screen.findByRole('navigation', { name: 'Main navigation' }));
    await user().click(nav.getByRole('link', { name: 'Web3' }));
    expect(await screen.findByRole('heading', { name: 'Web3' })).toBeInTheDocument();
    expect(await screen.findByRole('tab', { name: 'Transaction Graph', selected: true })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Overlapping Collections Graph' })).toBeInTheDocument();
    expect(await screen.findByRole('img', { name: /^Transaction graph/ })).toBeInTheDocument();
    expect(picker()).toHaveValue('Ludis Lighthouses (lighthouses, ETHEREUM)');
    // The overlap graph is asked for only once its tab is open.
    expect(web3Calls(calls)).toEqual(['/v1/web3/collections?page=1&pageSize=100', '/v1/web3/starmap?slug=lighthouses']);
    await user().click(screen.getByRole('tab', { name: 'Overlapping Collections Graph' }));
    expect(await screen.findByRole('img', { name: 'Overlapping collections: 1 bubbles' })).toBeInTheDocument();
    expect(web3Calls(calls)).toContain('/v1/web3/bubblewrap?slug=lighthouses');
  });

  it('keeps the chosen collection in ?slug= and says while it is indexing', async () => {
    signIn({ role: 'developer' }, true);
    const calls = api();
    const router = renderAt('/crypto?slug=harbour');
    expect(await screen.findByText('Indexing…')).toBeInTheDocument();
    expect(screen.getByText(/^Indexing: block 30 of 90\. The graphs show the transfers stored so far/)).toBeInTheDocument();
    await waitFor(() => expect(web3Calls(calls)).toContain('/v1/web3/starmap?slug=harbour'));
    await user().click(picker());
    await user().click(await screen.findByRole('option', { name: 'Ludis Lighthouses (lighthouses, ETHEREUM)', hidden: true }));
    expect(router.state.location.search).toBe('?slug=lighthouses');
    await waitFor(() => expect(web3Calls(calls)).toContain('/v1/web3/starmap?slug=lighthouses'));
    expect(screen.queryByText('Indexing…')).not.toBeInTheDocument();
  });

  it('says so when there is no collection yet, offering a superadmin to add one', async () => {
    signIn({ role: 'superadmin' }, true);
    api(on('GET', '/v1/web3/collections', { body: collectionsPage([]) }));
    renderAt('/crypto');
    expect(await screen.findByText('No collections yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add Collection' })).toHaveAttribute('href', '/collections/new');
  });
});
