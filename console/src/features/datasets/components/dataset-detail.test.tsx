import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import type { DatasetView, ListFilesResponse } from '@/lib/api/types';
import { USAGE_POLL_MS, USAGE_POLL_TRIES } from '@/features/datasets/api/cache';
import { DatasetDetail } from '@/features/datasets/components/dataset-detail';
import { advance, installManualClock, settle } from '@/testing/clock';
import { listing, makeDataset, sampleDataset, sharedDataset } from '@/testing/datasets';
import { installFakeXhr } from '@/testing/fake-xhr';
import { type Handler, type MockCall, mockFetch, on } from '@/testing/fetch-mock';
import { renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

const ROOT = listing('', [{ key: 'a.csv', size: 1500 }, { key: 'notes.txt', size: 12 }], ['raw/']);

function setup(dataset: DatasetView, pages: (call: MockCall) => ListFilesResponse = () => ROOT, url = `/datasets/${dataset.id}`, ...more: Handler[]) {
  signIn();
  // `more` first, so a test can answer a call its own way.
  const calls = mockFetch(
    ...more,
    on('POST', `/v1/datasets/getdatasetdetails/${dataset.id}`, { body: { success: true, dataset } }),
    on('POST', `/v1/datasets/listfiles/${dataset.id}`, (c) => ({ body: pages(c) })),
  );
  const view = renderWithProviders(<DatasetDetail id={dataset.id} />, { url, path: '/datasets/:id' });
  return { calls, ...view };
}

/** Fake-clock time for a mocked answer to be read (happy-dom reads bodies on timers). */
const ANSWER_MS = 100;

const listCalls = (calls: MockCall[]) => calls.filter((c) => c.url.startsWith('/v1/datasets/listfiles/'));
const fileRow = (name: string) => screen.getByRole('row', { name: new RegExp(`\\b${name.replace('.', '\\.')}\\b`) });

describe('dataset page', () => {
  it('shows the breadcrumb, name, description, owner, and the root folder with sizes', async () => {
    const { calls } = setup(makeDataset({ id: 'd1', name: 'Sales', description: 'Monthly sales', object_count: 2, bytes: 1512 }));
    expect(await screen.findByRole('heading', { name: 'Sales' })).toBeInTheDocument();
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: 'Datasets' })).toHaveAttribute('href', '/datasets');
    expect(screen.getByText('Monthly sales')).toBeInTheDocument();
    expect(screen.getByTestId('dataset-ownership')).toHaveTextContent('Owner: Ada Lovelace');
    expect(screen.getByText('2 files · 1.51 KB')).toBeInTheDocument();

    const table = await screen.findByRole('table', { name: 'Files and folders' });
    expect(within(table).getByRole('link', { name: 'raw' })).toHaveAttribute('href', '/datasets/d1?path=raw%2F');
    expect(fileRow('a.csv')).toHaveTextContent('1.50 KB');
    expect(fileRow('notes.txt')).toHaveTextContent('12 bytes');
    expect(listCalls(calls)[0].body).toEqual({ path: '', limit: 100 });

    // The owner has every action.
    for (const label of ['Preview a.csv', 'Download a.csv', 'Access URL for a.csv', 'Delete a.csv']) {
      expect(within(fileRow('a.csv')).getByRole('button', { name: label })).toBeInTheDocument();
    }
    expect(screen.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/datasets/edit/d1');
    expect(screen.getByRole('button', { name: 'Upload files' })).not.toHaveAttribute('aria-disabled');
  });

  it("dates files in the user's date format and time zone (profile settings)", async () => {
    setup(makeDataset({ id: 'd1' }));
    signIn({ date_format: 'DD/MMMM/YY', timezone: 'Asia/Kolkata' });
    await screen.findByRole('table', { name: 'Files and folders' });
    // LastModified 2026-11-20T10:00:00Z is 3:30 pm in Kolkata.
    expect(fileRow('a.csv')).toHaveTextContent('20/November/26 03:30 PM');
  });

  it('opens the folder the address names, with clickable path segments', async () => {
    const { calls } = setup(makeDataset({ id: 'd1', name: 'Sales' }), () => listing('raw/sub/', [{ key: 'raw/sub/x.json' }]), '/datasets/d1?path=raw/sub/');
    await screen.findByRole('row', { name: /x\.json/ });
    expect(listCalls(calls)[0].body).toEqual({ path: 'raw/sub/', limit: 100 });
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: 'Sales' })).toHaveAttribute('href', '/datasets/d1');
    expect(within(crumbs).getByRole('link', { name: 'raw' })).toHaveAttribute('href', '/datasets/d1?path=raw%2F');
    expect(within(crumbs).getByText('sub')).toHaveAttribute('aria-current', 'page');
  });

  it("disables upload, new folder and delete for view access ('You need edit access') and hides download, delete and access URL on a shared dataset", async () => {
    setup(sharedDataset('view', { id: 'd2', name: 'Census' }));
    await screen.findByRole('table', { name: 'Files and folders' });
    expect(screen.getByTestId('dataset-ownership')).toHaveTextContent('Shared with you (view) by Grace Hopper');
    for (const name of ['Upload files', 'New folder', 'Delete']) {
      expect(screen.getByRole('button', { name })).toHaveAttribute('aria-disabled', 'true');
    }
    await user().hover(screen.getByRole('button', { name: 'Upload files' }));
    expect(await screen.findByRole('tooltip', { hidden: true })).toHaveTextContent('You need edit access');
    // Clicking does nothing.
    await user().click(screen.getByRole('button', { name: 'New folder' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    const row = fileRow('a.csv');
    expect(within(row).getByRole('button', { name: 'Preview a.csv' })).toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: /Download|Access URL|Delete/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
  });

  it('lets a shared editor upload and delete selected entries but still hides the row actions', async () => {
    setup(sharedDataset('edit', { id: 'd3' }));
    await screen.findByRole('table', { name: 'Files and folders' });
    expect(screen.getByTestId('dataset-ownership')).toHaveTextContent('Shared with you (edit) by Grace Hopper');
    expect(screen.getByRole('button', { name: 'Upload files' })).not.toHaveAttribute('aria-disabled');
    expect(screen.getByRole('button', { name: 'New folder' })).not.toHaveAttribute('aria-disabled');
    // Delete waits for a selection.
    expect(screen.getByRole('button', { name: 'Delete' })).toHaveAttribute('aria-disabled', 'true');
    await user().click(screen.getByRole('checkbox', { name: 'Select a.csv' }));
    expect(screen.getByRole('button', { name: 'Delete' })).not.toHaveAttribute('aria-disabled');
    expect(within(fileRow('a.csv')).queryByRole('button', { name: /Download|Access URL|Delete/ })).not.toBeInTheDocument();
  });

  it("says 'Sample dataset' and hides the actions of a sample", async () => {
    setup(sampleDataset({ id: 'd4', name: 'Iris' }));
    await screen.findByRole('table', { name: 'Files and folders' });
    expect(screen.getByTestId('dataset-ownership')).toHaveTextContent('Sample dataset');
    expect(screen.getByRole('button', { name: 'Upload files' })).toHaveAttribute('aria-disabled', 'true');
    expect(within(fileRow('a.csv')).queryByRole('button', { name: /Download|Access URL|Delete/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Share' })).not.toBeInTheDocument();
  });

  it('pages with continuation tokens: Next sends the token, Prev goes back', async () => {
    const { calls } = setup(makeDataset({ id: 'd1' }), (c) => {
      const token = (c.body as { continuationToken?: string }).continuationToken;
      if (!token) return listing('', [{ key: 'p1.csv' }], [], { IsTruncated: true, NextContinuationToken: 't1' });
      if (token === 't1') return listing('', [{ key: 'p2.csv' }], [], { IsTruncated: true, ContinuationToken: 't1', NextContinuationToken: 't2' });
      return listing('', [{ key: 'p3.csv' }], [], { ContinuationToken: 't2' });
    });
    await screen.findByRole('row', { name: /p1\.csv/ });
    const pager = screen.getByRole('navigation', { name: 'File pages' });
    expect(within(pager).getByText('Page 1')).toBeInTheDocument();
    expect(within(pager).getByRole('button', { name: 'Prev' })).toBeDisabled();
    await user().click(within(pager).getByRole('button', { name: 'Next' }));
    await screen.findByRole('row', { name: /p2\.csv/ });
    await user().click(within(pager).getByRole('button', { name: 'Next' }));
    await screen.findByRole('row', { name: /p3\.csv/ });
    expect(within(pager).getByText('Page 3')).toBeInTheDocument();
    expect(within(pager).getByRole('button', { name: 'Next' })).toBeDisabled();
    await user().click(within(pager).getByRole('button', { name: 'Prev' }));
    await screen.findByRole('row', { name: /p2\.csv/ });
    await user().click(within(pager).getByRole('button', { name: 'Prev' }));
    await screen.findByRole('row', { name: /p1\.csv/ });
    expect(listCalls(calls).map((c) => (c.body as { continuationToken?: string }).continuationToken ?? null)).toEqual([null, 't1', 't2']);
  });

  it('creates a folder in the current one; a name of blanks is ignored', async () => {
    const { calls } = setup(
      makeDataset({ id: 'd1' }),
      () => listing('raw/', []),
      '/datasets/d1?path=raw/',
      on('POST', '/v1/datasets/createdatasetdirectory', { body: { success: true, message: 'Folder created', Key: 'raw/New folder/' } }),
    );
    expect(await screen.findByText('This folder is empty')).toBeInTheDocument();
    await user().click(screen.getByRole('button', { name: 'New folder' }));
    const dialog = await screen.findByRole('dialog', { name: 'New folder' });
    const box = within(dialog).getByRole('textbox', { name: /Folder name/ });
    await user().type(box, '   ');
    expect(box).toHaveValue('');
    await user().click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByText('Empty folder name not allowed')).toBeInTheDocument();
    await user().type(box, 'New folder');
    await user().click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Folder created')).toBeInTheDocument();
    expect(calls.find((c) => c.url === '/v1/datasets/createdatasetdirectory')?.body).toEqual({ id: 'd1', path: 'raw/', name: 'New folder' });
    await vi.waitFor(() => expect(listCalls(calls).length).toBeGreaterThan(1));
  });

  it("deletes the selected files and folders after confirming, with 'File(s) Deleted!'", async () => {
    const { calls } = setup(
      makeDataset({ id: 'd1' }),
      () => ROOT,
      '/datasets/d1',
      on('POST', '/v1/datasets/deletedatasetobject/d1', { body: { success: true, message: 'File(s) Deleted!', deleted: 4 } }),
    );
    await screen.findByRole('table', { name: 'Files and folders' });
    await user().click(screen.getByRole('checkbox', { name: 'Select raw' }));
    await user().click(screen.getByRole('checkbox', { name: 'Select a.csv' }));
    await user().click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Please confirm' });
    expect(within(dialog).getByText('Are you sure you want to delete the selected file(s)?')).toBeInTheDocument();
    expect(within(dialog).getByText('A folder is deleted with everything in it.')).toBeInTheDocument();
    await user().click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('File(s) Deleted!')).toBeInTheDocument();
    expect(calls.find((c) => c.url === '/v1/datasets/deletedatasetobject/d1')?.body).toEqual({ paths: ['raw/', 'a.csv'] });
    expect(screen.getByRole('checkbox', { name: 'Select a.csv' })).not.toBeChecked();
  });

  it('deletes one file from its row', async () => {
    const { calls } = setup(makeDataset({ id: 'd1' }), () => ROOT, '/datasets/d1', on('POST', '/v1/datasets/deletedatasetobject/d1', { body: { success: true, message: 'File(s) Deleted!', deleted: 1 } }));
    await user().click(await screen.findByRole('button', { name: 'Delete notes.txt' }));
    await user().click(within(await screen.findByRole('dialog', { name: 'Please confirm' })).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('File(s) Deleted!')).toBeInTheDocument();
    expect(calls.find((c) => c.url === '/v1/datasets/deletedatasetobject/d1')?.body).toEqual({ path: 'notes.txt' });
  });

  it('says the counts are being measured after a change, asks again until they move, then agrees with the list', async () => {
    installManualClock();
    const before = makeDataset({ id: 'd1', name: 'Sales', object_count: 2, bytes: 1512 });
    const after = { ...before, object_count: 1, bytes: 1500 };
    let detailCalls = 0;
    // The API measures in the background and at most every 10 s: the first answers still carry the old numbers.
    setup(
      before,
      () => ROOT,
      '/datasets/d1',
      on('POST', '/v1/datasets/getdatasetdetails/d1', () => ({ body: { success: true, dataset: ++detailCalls <= 3 ? before : after } })),
      on('POST', '/v1/datasets/deletedatasetobject/d1', { body: { success: true, message: 'File(s) Deleted!', deleted: 1 } }),
    );
    await settle(() => expect(screen.getByTestId('dataset-usage')).toHaveTextContent('2 files · 1.51 KB'));
    await advance(ANSWER_MS);
    await settle(() => expect(screen.getByRole('button', { name: 'Delete notes.txt' })).toBeInTheDocument());
    fireEvent.click(screen.getByRole('button', { name: 'Delete notes.txt' }));
    await settle(() => expect(screen.getByRole('dialog', { name: 'Please confirm' })).toBeInTheDocument());
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Please confirm' })).getByRole('button', { name: 'Delete' }));
    await settle(() => expect(screen.getByText('File(s) Deleted!')).toBeInTheDocument());
    // Never the stale '2 files' beside a list that changed. (`advance(ANSWER_MS)` lets each answer
    // arrive, well before the next ask is due.)
    await settle(() => expect(detailCalls).toBe(2));
    await advance(ANSWER_MS);
    expect(screen.getByTestId('dataset-usage')).toHaveTextContent('Counting files…');
    await advance(USAGE_POLL_MS - ANSWER_MS);
    await settle(() => expect(detailCalls).toBe(3));
    await advance(ANSWER_MS);
    expect(screen.getByTestId('dataset-usage')).toHaveTextContent('Counting files…');
    await advance(USAGE_POLL_MS - ANSWER_MS);
    await settle(() => expect(detailCalls).toBe(4));
    await advance(ANSWER_MS);
    await settle(() => expect(screen.getByTestId('dataset-usage')).toHaveTextContent('1 file · 1.50 KB'));
    // The numbers moved: no more asking.
    await advance(USAGE_POLL_MS * USAGE_POLL_TRIES);
    expect(detailCalls).toBe(4);
  });

  it('stops asking after USAGE_POLL_TRIES when the numbers do not move, and shows them', async () => {
    installManualClock();
    const dataset = makeDataset({ id: 'd1', object_count: 2, bytes: 1512 });
    let detailCalls = 0;
    setup(
      dataset,
      () => ROOT,
      '/datasets/d1',
      on('POST', '/v1/datasets/getdatasetdetails/d1', () => (detailCalls++, { body: { success: true, dataset } })),
      on('POST', '/v1/datasets/createdatasetdirectory', { body: { success: true, message: 'Folder created' } }),
    );
    await settle(() => expect(screen.getByTestId('dataset-usage')).toHaveTextContent('2 files · 1.51 KB'));
    fireEvent.click(screen.getByRole('button', { name: 'New folder' }));
    await settle(() => expect(screen.getByRole('dialog')).toBeInTheDocument());
    fireEvent.change(within(screen.getByRole('dialog')).getByRole('textbox'), { target: { value: 'empty' } });
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Create' }));
    await settle(() => expect(screen.getByTestId('dataset-usage')).toHaveTextContent('Counting files…'));
    await advance(USAGE_POLL_MS * USAGE_POLL_TRIES);
    await settle(() => expect(screen.getByTestId('dataset-usage')).toHaveTextContent('2 files · 1.51 KB'));
    expect(detailCalls).toBe(1 + USAGE_POLL_TRIES);
  });

  it('uploads into the current folder with progress and refuses other file types', async () => {
    const xhr = installFakeXhr();
    const { calls } = setup(
      makeDataset({ id: 'd1' }),
      () => listing('raw/', []),
      '/datasets/d1?path=raw/',
      on('POST', '/v1/datasets/getpresignedurl/d1', (c) => {
        const { path, method } = c.body as { path: string; method: string };
        return { body: { success: true, url: `http://storage.test/ludis/datasets/d1/${path}?X-Amz-Signature=s`, method, key: path, expires_in: 900 } };
      }),
    );
    await screen.findByText('This folder is empty');
    const input = screen.getByLabelText('Files to upload');
    const u = userEvent.setup({ delay: null, applyAccept: false });
    await u.upload(input, [new File(['x'], 'slides.pdf')]);
    expect(await screen.findByText(/Only \.csv, \.json, \.xml, \.txt, \.xlsx and \.xls files can be uploaded\. Not accepted: slides\.pdf/)).toBeInTheDocument();

    await u.upload(input, [new File(['a,b\n1,2\n'], 'data.csv', { type: 'text/csv' })]);
    const dialog = await screen.findByRole('dialog', { name: 'Uploading files' });
    await vi.waitFor(() => expect(xhr.requests).toHaveLength(1));
    const put = xhr.requests[0];
    expect(put.method).toBe('PUT');
    expect(put.url).toBe('http://storage.test/ludis/datasets/d1/raw/data.csv?X-Amz-Signature=s');
    expect(calls.find((c) => c.url === '/v1/datasets/getpresignedurl/d1')?.body).toEqual({ path: 'raw/data.csv', method: 'PUT' });
    put.progress(4, 8);
    await vi.waitFor(() => expect(within(dialog).getByRole('progressbar', { name: 'data.csv progress' })).toHaveAttribute('aria-valuenow', '50'));
    const before = listCalls(calls).length;
    put.respond(200);
    expect(await screen.findByText('Data Uploaded Successfully!')).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.queryByRole('dialog', { name: 'Uploading files' })).not.toBeInTheDocument());
    await vi.waitFor(() => expect(listCalls(calls).length).toBeGreaterThan(before));
  });

  it("downloads with progress and hands the file to the browser ('Download complete')", async () => {
    const xhr = installFakeXhr();
    const createObjectURL = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:test');
    const revokeObjectURL = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const clicked: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    try {
      const { calls } = setup(
        makeDataset({ id: 'd1' }),
        () => ROOT,
        '/datasets/d1',
        on('POST', '/v1/datasets/getpresignedurl/d1', { body: { success: true, url: 'http://storage.test/get-a', method: 'GET', key: 'a.csv', expires_in: 3600 } }),
      );
      await user().click(await screen.findByRole('button', { name: 'Download a.csv' }));
      const dialog = await screen.findByRole('dialog', { name: 'Downloading files' });
      await vi.waitFor(() => expect(xhr.requests).toHaveLength(1));
      expect(calls.find((c) => c.url === '/v1/datasets/getpresignedurl/d1')?.body).toEqual({ path: 'a.csv', method: 'GET' });
      const get = xhr.requests[0];
      expect(get.method).toBe('GET');
      expect(get.responseType).toBe('blob');
      get.progress(750, 1500);
      await vi.waitFor(() => expect(within(dialog).getByRole('progressbar', { name: 'a.csv progress' })).toHaveAttribute('aria-valuenow', '50'));
      expect(within(dialog).getByRole('progressbar', { name: 'Overall progress' })).toHaveAttribute('aria-valuenow', '50');
      get.respond(200, new Blob(['x'.repeat(1500)]));
      expect(await screen.findByText('Download complete')).toBeInTheDocument();
      expect(clicked).toEqual(['a.csv']);
      expect(createObjectURL).toHaveBeenCalled();
    } finally {
      click.mockRestore();
      createObjectURL.mockRestore();
      revokeObjectURL.mockRestore();
    }
  });

  it('previews a table with its sheet and a note when only the first rows are shown', async () => {
    setup(
      makeDataset({ id: 'd1' }),
      () => listing('', [{ key: 'book.xlsx' }, { key: 'notes.txt' }]),
      '/datasets/d1',
      on('POST', '/v1/datasets/getfilepreview/d1', (c) =>
        (c.body as { path: string }).path === 'book.xlsx'
          ? { body: { success: true, preview: { format: 'xlsx', columns: ['region', 'total'], rows: [['north', '3'], ['south', '4']], text: null, sheet: 'Q1', truncated: true } } }
          : { body: { success: true, preview: { format: 'txt', columns: [], rows: [], text: 'hello\nworld', sheet: null, truncated: false } } },
      ),
    );
    await user().click(await screen.findByRole('button', { name: 'Preview book.xlsx' }));
    const dialog = await screen.findByRole('dialog', { name: 'Preview: book.xlsx' });
    const table = await within(dialog).findByRole('table', { name: 'Preview of book.xlsx' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['region', 'total']);
    expect(within(table).getByRole('row', { name: 'south 4' })).toBeInTheDocument();
    expect(within(dialog).getByText('Q1')).toBeInTheDocument();
    expect(within(dialog).getByText('Showing the first 2 rows.')).toBeInTheDocument();
    await user().keyboard('{Escape}');
    await vi.waitFor(() => expect(screen.queryByRole('dialog', { name: 'Preview: book.xlsx' })).not.toBeInTheDocument());

    await user().click(screen.getByRole('button', { name: 'Preview notes.txt' }));
    const text = await screen.findByRole('dialog', { name: 'Preview: notes.txt' });
    expect(await within(text).findByText(/hello\s+world/)).toBeInTheDocument();
    expect(within(text).queryByText(/Showing the first/)).not.toBeInTheDocument();
  });

  it("explains a dataset the caller cannot see ('Dataset not found')", async () => {
    signIn();
    mockFetch(on('POST', '/v1/datasets/getdatasetdetails/zz', { status: 404, body: { success: false, code: 'not_found', message: 'Dataset not found' } }));
    renderWithProviders(<DatasetDetail id="zz" />, { url: '/datasets/zz', path: '/datasets/:id' });
    expect(await screen.findByText('Dataset not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Datasets' })).toHaveAttribute('href', '/datasets');
  });
});




describe('temporary links', () => {
  it('lists the links to editors when opened, and revokes one', async () => {
    let links = [
      { id: 'l1', path: 'a.csv', created_by: 'ada@example.com', created_at: 1_700_000_000, expires_at: 1_700_604_800 },
      { id: 'l2', path: 'raw/b.csv', created_by: null, created_at: 1_700_000_100, expires_at: 1_700_604_900 },
    ];
    const { calls } = setup(
      makeDataset({ id: 'd1', name: 'Sales' }),
      () => ROOT,
      '/datasets/d1',
      on('GET', '/v1/datasets/links/d1', () => ({ body: { success: true, links } })),
      on('DELETE', '/v1/datasets/links/d1/l1', () => {
        links = links.filter((l) => l.id !== 'l1');
        return { body: { success: true, message: 'Link revoked' } };
      }),
    );
    await screen.findByRole('heading', { name: 'Sales' });
    // Nothing is asked until the section is opened.
    expect(calls.some((c) => c.url === '/v1/datasets/links/d1')).toBe(false);
    await user().click(screen.getByRole('button', { name: 'Temporary links' }));
    const table = await screen.findByRole('table', { name: 'Temporary links' });
    expect(within(table).getAllByTestId('dataset-link')).toHaveLength(2);
    expect(within(table).getByText('ada@example.com')).toBeInTheDocument();
    expect(within(table).getByText('a former user')).toBeInTheDocument();

    await user().click(screen.getByRole('button', { name: 'Revoke the link to a.csv made by ada@example.com' }));
    expect(await screen.findByText('Link revoked')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/v1/datasets/links/d1/l1')).toBe(true);
    await screen.findByText('a former user');
    expect(screen.queryByText('ada@example.com')).not.toBeInTheDocument();
  });

  it('says how a link is made when there is none', async () => {
    setup(makeDataset({ id: 'd1', name: 'Sales' }), () => ROOT, '/datasets/d1', on('GET', '/v1/datasets/links/d1', { body: { success: true, links: [] } }));
    await screen.findByRole('heading', { name: 'Sales' });
    await user().click(screen.getByRole('button', { name: 'Temporary links' }));
    expect(await screen.findByText(/No temporary links\. A file’s Access URL makes one/)).toBeInTheDocument();
  });

  it('is not offered to viewers', async () => {
    setup(sharedDataset('view'));
    await screen.findByTestId('dataset-ownership');
    expect(screen.queryByRole('button', { name: 'Temporary links' })).not.toBeInTheDocument();
  });
});
