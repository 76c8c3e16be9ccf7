import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { DatasetCreateForm, mergeFiles } from '@/features/datasets/components/dataset-create-form';
import { makeDataset } from '@/testing/datasets';
import { installFakeXhr } from '@/testing/fake-xhr';
import { type MockCall, mockFetch, on } from '@/testing/fetch-mock';
import { landing, renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';

function setup() {
  signIn();
  const calls = mockFetch(
    on('POST', '/v1/datasets/createdataset', (c) => {
      const { dataset } = c.body as { dataset: { name: string; description: string } };
      return { status: 201, body: { success: true, message: 'Dataset Created Successfully', dataset: makeDataset({ id: 'new-1', ...dataset }) } };
    }),
    on('POST', '/v1/datasets/getpresignedurl/new-1', (c) => {
      const { path } = c.body as { path: string };
      return { body: { success: true, url: `http://storage.test/put/${path}`, method: 'PUT', key: path, expires_in: 900 } };
    }),
  );
  const view = renderWithProviders(<DatasetCreateForm />, { url: '/datasets/new', path: '/datasets/new', routes: [landing('/datasets/:id', 'the dataset page')] });
  // Accept is applied by the component, not by user-event, so refused files reach it.
  const u = userEvent.setup({ delay: null, applyAccept: false });
  return { calls, u, ...view };
}

const files = () => [
  new File(['a,b\n1,2\n'], 'sales.csv', { type: 'text/csv' }),
  new File(['[{"a":1}]'], 'rows.json', { type: 'application/json' }),
  new File([new Uint8Array(2000)], 'book.xlsx'),
];

const creates = (calls: MockCall[]) => calls.filter((c) => c.url === '/v1/datasets/createdataset');

describe('import dataset form', () => {
  it("requires a name ('Empty name not allowed') and ignores a name of blanks", async () => {
    const { calls, u } = setup();
    const name = screen.getByRole('textbox', { name: /^Name/ });
    await u.type(name, '   ');
    expect(name).toHaveValue('');
    await u.click(screen.getByRole('button', { name: 'Create dataset' }));
    expect(screen.getByText('Empty name not allowed')).toBeInTheDocument();
    expect(creates(calls)).toHaveLength(0);
    await u.type(name, 'Sales');
    expect(screen.queryByText('Empty name not allowed')).not.toBeInTheDocument();
  });

  it('keeps the description optional and says why: editing will need it (spec 001 §5)', async () => {
    const { calls, u } = setup();
    const description = screen.getByRole('textbox', { name: /^Description/ });
    expect(description).not.toBeRequired();
    expect(description).toHaveAccessibleDescription('Optional now, but needed to edit the dataset later.');
    await u.type(screen.getByRole('textbox', { name: /^Name/ }), 'Sales');
    await u.click(screen.getByRole('button', { name: 'Create dataset' }));
    await vi.waitFor(() => expect(creates(calls)).toHaveLength(1));
    expect(screen.queryByText('Empty description not allowed')).not.toBeInTheDocument();
  });

  it('refuses other file types with a clear message and keeps the accepted ones', async () => {
    const { u } = setup();
    await u.upload(screen.getByLabelText('Files'), [new File(['x'], 'deck.pdf'), new File(['a'], 'a.csv')]);
    expect(screen.getByRole('alert')).toHaveTextContent('Only .csv, .json, .xml, .txt, .xlsx and .xls files can be uploaded. Not accepted: deck.pdf');
    const list = screen.getByRole('table', { name: 'Files to upload' });
    expect(within(list).getByText('a.csv')).toBeInTheDocument();
    expect(within(list).queryByText('deck.pdf')).not.toBeInTheDocument();
    await u.click(within(list).getByRole('button', { name: 'Remove a.csv' }));
    expect(screen.queryByRole('table', { name: 'Files to upload' })).not.toBeInTheDocument();
  });

  it('a file picked again replaces the earlier one of that name', () => {
    const a1 = new File(['1'], 'a.csv');
    const a2 = new File(['22'], 'a.csv');
    const b = new File(['b'], 'b.json');
    expect(mergeFiles([a1, b], [a2])).toEqual([a2, b]);
  });

  it("creates the dataset, uploads each file with progress, says 'Data Uploaded Successfully!' and opens the dataset", async () => {
    const xhr = installFakeXhr();
    const { calls, u, router } = setup();
    await u.type(screen.getByRole('textbox', { name: /^Name/ }), '  Sales 2026 ');
    await u.type(screen.getByRole('textbox', { name: /^Description/ }), 'Quarterly numbers');
    await u.upload(screen.getByLabelText('Files'), files());
    await u.click(screen.getByRole('button', { name: 'Create dataset' }));

    const dialog = await screen.findByRole('dialog', { name: 'Uploading files' });
    expect(creates(calls)[0].body).toEqual({ dataset: { name: 'Sales 2026', description: 'Quarterly numbers' } });
    await vi.waitFor(() => expect(xhr.requests).toHaveLength(3));
    expect(xhr.requests.map((r) => [r.method, r.url])).toEqual([
      ['PUT', 'http://storage.test/put/sales.csv'],
      ['PUT', 'http://storage.test/put/rows.json'],
      ['PUT', 'http://storage.test/put/book.xlsx'],
    ]);
    expect(xhr.requests[0].headers['Content-Type']).toBe('text/csv');
    expect(xhr.requests[2].headers['Content-Type']).toBe('application/octet-stream');
    expect((xhr.requests[2].body as File).name).toBe('book.xlsx');
    expect(within(dialog).getAllByRole('listitem')).toHaveLength(3);

    // Mid-transfer the dialog cannot be dismissed, only cancelled.
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Close' })).not.toBeInTheDocument();
    await u.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Uploading files' })).toBeInTheDocument();

    xhr.requests[2].progress(500, 2000);
    await vi.waitFor(() => expect(within(dialog).getByRole('progressbar', { name: 'book.xlsx progress' })).toHaveAttribute('aria-valuenow', '25'));
    xhr.requests[0].respond(200);
    xhr.requests[1].respond(200);
    await vi.waitFor(() => expect(within(dialog).getByRole('status')).toHaveTextContent('2 of 3 files done'));
    xhr.requests[2].progress(2000, 2000);
    xhr.requests[2].respond(200);

    expect(await screen.findByText('Data Uploaded Successfully!')).toBeInTheDocument();
    expect(await screen.findByText('the dataset page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/datasets/new-1');
    expect(calls.filter((c) => c.url === '/v1/datasets/getpresignedurl/new-1').map((c) => c.body)).toEqual([
      { path: 'sales.csv', method: 'PUT' },
      { path: 'rows.json', method: 'PUT' },
      { path: 'book.xlsx', method: 'PUT' },
    ]);
  });

  it("shows 'File(s) had an error while uploading.' with the failed files when one upload fails", async () => {
    const xhr = installFakeXhr((r) => {
      if (r.url.endsWith('rows.json')) {
        queueMicrotask(() => r.respond(403, '<?xml version="1.0"?><Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>'));
      } else if (r.url.endsWith('book.xlsx')) {
        queueMicrotask(() => r.fail());
      } else {
        queueMicrotask(() => r.respond(200));
      }
    });
    const { u, router } = setup();
    await u.type(screen.getByRole('textbox', { name: /^Name/ }), 'Sales');
    await u.upload(screen.getByLabelText('Files'), files());
    await u.click(screen.getByRole('button', { name: 'Create dataset' }));

    const dialog = await screen.findByRole('dialog', { name: 'Uploading files' });
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('File(s) had an error while uploading.');
    const failed = within(alert).getByRole('list', { name: 'Failed files' });
    expect(within(failed).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'rows.json: The upload failed (HTTP 403): Request has expired',
      'book.xlsx: The object storage could not be reached.',
    ]);
    expect(xhr.requests).toHaveLength(3);
    expect(screen.queryByText('Data Uploaded Successfully!')).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/datasets/new');
    // The dataset exists: closing opens it.
    await u.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(await screen.findByText('the dataset page')).toBeInTheDocument();
  });

  it('Cancel aborts the running uploads', async () => {
    const xhr = installFakeXhr();
    const { u } = setup();
    await u.type(screen.getByRole('textbox', { name: /^Name/ }), 'Sales');
    await u.upload(screen.getByLabelText('Files'), files());
    await u.click(screen.getByRole('button', { name: 'Create dataset' }));
    const dialog = await screen.findByRole('dialog', { name: 'Uploading files' });
    await vi.waitFor(() => expect(xhr.requests).toHaveLength(3));
    xhr.requests[0].respond(200);
    await u.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await vi.waitFor(() => expect(xhr.requests.slice(1).every((r) => r.aborted)).toBe(true));
    expect(xhr.requests[0].aborted).toBe(false);
    expect(await within(dialog).findByText('Cancelled: the files that had not finished were not transferred.')).toBeInTheDocument();
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeInTheDocument();
  });

  it('creates a dataset without files and opens it', async () => {
    const { calls, u } = setup();
    await u.type(screen.getByRole('textbox', { name: /^Name/ }), 'Empty');
    await u.click(screen.getByRole('button', { name: 'Create dataset' }));
    expect(await screen.findByText('the dataset page')).toBeInTheDocument();
    expect(screen.getByText('Dataset Created Successfully')).toBeInTheDocument();
    expect(creates(calls)[0].body).toEqual({ dataset: { name: 'Empty', description: '' } });
  });
});
