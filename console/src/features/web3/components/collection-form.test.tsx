import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { CollectionForm } from '@/features/web3/components/collection-form';
import { type MockCall, mockFetch, on } from '@/testing/fetch-mock';
import { landing, renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';
import { makeCollection } from '@/testing/web3';

const address = `0x${'ab12'.repeat(10)}`;
const validatePath = `/v1/web3/validateContract/${address}`;
const addPath = `/v1/web3/addCollection/${address}`;
const valid = { success: true, valid: true, contract_address: address, chain: 'ETHEREUM', name: 'Ludis Lighthouses', symbol: 'LLH', contract_type: 'ERC721', message: 'ERC-721 collection.' };
const noContract = { ...valid, valid: false, name: null, symbol: null, contract_type: null, message: 'No contract at this address on ETHEREUM.' };

function renderForm() {
  signIn({ role: 'superadmin' }, true);
  return renderWithProviders(<CollectionForm />, { url: '/collections/new', routes: [landing('/collections')] });
}

async function fill({ addr = address, slug = 'Lighthouses', chain = 'ETHEREUM' }: { addr?: string; slug?: string; chain?: string | null } = {}) {
  if (addr) await user().type(screen.getByRole('textbox', { name: /^Contract address/ }), addr);
  if (slug) await user().type(screen.getByRole('textbox', { name: /^Slug name/ }), slug);
  if (chain) {
    await user().click(screen.getByLabelText(/^Chain/, { selector: 'input:not([type=hidden])' }));
    await user().click(await screen.findByRole('option', { name: chain, hidden: true }));
  }
}

const submit = () => user().click(screen.getByRole('button', { name: 'Add Collection' }));
const web3Calls = (calls: MockCall[]) => calls.filter((c) => c.url.startsWith('/v1/web3/'));

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the add-collection form', () => {
  it('says what each empty field needs and sends nothing', async () => {
    const calls = mockFetch();
    renderForm();
    await submit();
    expect(await screen.findByText('Contract address is required')).toBeInTheDocument();
    expect(screen.getByText('Slug name is required')).toBeInTheDocument();
    expect(screen.getByText('Chain is required')).toBeInTheDocument();
    expect(web3Calls(calls)).toEqual([]);
  });

  it.each([
    ['41 characters', address.slice(0, 41)],
    ['43 characters', `${address}f`],
    ['a character other than a letter or digit', `0x-${address.slice(3)}`],
  ])('refuses a contract address of %s', async (_, addr) => {
    const calls = mockFetch();
    renderForm();
    await fill({ addr });
    await submit();
    expect(await screen.findByText('Contract address must be exactly 42 letters and digits')).toBeInTheDocument();
    expect(web3Calls(calls)).toEqual([]);
  });

  it('refuses a slug name with anything but letters and digits, and clears the message once edited', async () => {
    const calls = mockFetch();
    renderForm();
    await fill({ slug: 'light-houses' });
    await submit();
    expect(await screen.findByText('Slug name must contain only letters and digits')).toBeInTheDocument();
    expect(web3Calls(calls)).toEqual([]);
    await user().type(screen.getByRole('textbox', { name: /^Slug name/ }), 'x');
    expect(screen.queryByText('Slug name must contain only letters and digits')).not.toBeInTheDocument();
  });

  it("validates on the chain, then adds: 'Collection created successfully!' and back to the list", async () => {
    const calls = mockFetch(
      on('POST', validatePath, { body: valid }),
      on('POST', addPath, { status: 201, body: { success: true, message: 'Collection created successfully!', collection: makeCollection({ status: 'running' }) } }),
    );
    const { router } = renderForm();
    await fill({ chain: 'POLYGON' });
    await submit();
    expect(await screen.findByText('Collection created successfully!')).toBeInTheDocument();
    expect(await screen.findByText('landed on /collections')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/collections');
    expect(web3Calls(calls).map((c) => [c.method, c.url, c.body])).toEqual([
      ['POST', validatePath, { chain: 'POLYGON' }],
      ['POST', addPath, { gcp_slug: 'Lighthouses', chain: 'POLYGON' }],
    ]);
  });

  it('a contract that is not a collection is logged and its reason shown under the form; nothing is added', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const calls = mockFetch(on('POST', validatePath, { body: noContract }));
    const { router } = renderForm();
    await fill();
    await submit();
    expect(await screen.findByRole('alert')).toHaveTextContent('No contract at this address on ETHEREUM.');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('No contract at this address on ETHEREUM.'));
    expect(web3Calls(calls).map((c) => c.url)).toEqual([validatePath]);
    expect(router.state.location.pathname).toBe('/collections/new');
  });

  it.each([
    [409, 'This slug name is already used.'],
    [422, 'This contract is not an ERC-721 or ERC-1155 collection.'],
  ])('shows the server refusal of the addition (%i) in its words', async (status, message) => {
    mockFetch(on('POST', validatePath, { body: valid }), on('POST', addPath, { status, body: { success: false, code: 'refused', message } }));
    const { router } = renderForm();
    await fill();
    await submit();
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(router.state.location.pathname).toBe('/collections/new');
  });

  it('shows an unreachable chain (503) in the server words, and adds nothing', async () => {
    const message = 'The ETHEREUM chain cannot be reached: connection refused';
    const calls = mockFetch(on('POST', validatePath, { status: 503, body: { success: false, code: 'chain_unreachable', message } }));
    renderForm();
    await fill();
    await submit();
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(web3Calls(calls).map((c) => c.url)).toEqual([validatePath]);
  });

  it('shows the submit button loading while the contract is checked', async () => {
    let answer: (r: Response) => void = () => undefined;
    vi.stubGlobal('fetch', vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))));
    renderForm();
    await fill();
    await submit();
    const button = screen.getByRole('button', { name: 'Add Collection' });
    await waitFor(() => expect(button).toHaveAttribute('data-loading', 'true'));
    answer(new Response(JSON.stringify(noContract), { status: 200, headers: { 'Content-Type': 'application/json' } }));
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await waitFor(() => expect(button).not.toHaveAttribute('data-loading'));
  });
});
