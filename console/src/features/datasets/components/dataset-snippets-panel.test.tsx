import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { DatasetSnippetsPanel } from '@/features/datasets/components/dataset-snippets-panel';
import { datasetSnippet } from '@/features/datasets/utils/snippets';
import { listing, makeDataset, sharedDataset } from '@/testing/datasets';
import { mockFetch, on } from '@/testing/fetch-mock';
import { renderInProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

const URL_ = 'https://ludis.example/v1/datasets/download/d1?path=q1%2Fsales.csv';
/** The same file as a project's container reaches the API. */
const POD_URL = 'http://ludis-api.ludis-system.svc:80/v1/datasets/download/d1?path=q1%2Fsales.csv';

describe('dataset snippets', () => {
  it('reads a CSV in Python with the API key from the project secret, not sent on to the storage', () => {
    const code = datasetSnippet('python', URL_, 'q1/sales.csv');
    expect(code).toContain(`url = "${URL_}"`);
    expect(code).toContain('request.add_unredirected_header("x-api-key", os.environ["LUDIS_API_KEY"])');
    expect(code).toContain('import pandas as pd');
    expect(code).toContain('df = pd.read_csv(io.BytesIO(data))');
    expect(datasetSnippet('python', URL_, 'notes.txt')).not.toContain('pandas');
    expect(datasetSnippet('python', URL_, 'book.xlsx')).toContain('pd.read_excel');
  });

  it('reads it in R and Bash, quoting what the names hold', () => {
    const r = datasetSnippet('r', URL_, 'q1/sales.csv');
    expect(r).toContain(`url <- "${URL_}"`);
    expect(r).toContain('download.file(url, path, mode = "wb", headers = c("x-api-key" = Sys.getenv("LUDIS_API_KEY")))');
    expect(r).toContain('df <- read.csv(path)');
    expect(datasetSnippet('bash', "https://h/x?path=it's.csv", "it's.csv")).toBe(
      `# Your API key (profile settings), saved as the project secret LUDIS_API_KEY.\ncurl -fsSL -H "x-api-key: $LUDIS_API_KEY" 'https://h/x?path=it'\\''s.csv' -o 'it'\\''s.csv'`,
    );
    expect(datasetSnippet('r', URL_, 'say "hi".json')).toContain('file.path(tempdir(), "say \\"hi\\".json")');
  });

  it('lists My Files and Shared, a dataset’s folders and files, and the snippets of a file, for the address the container reaches', async () => {
    signIn();
    const calls = mockFetch(
      on('GET', '/v1/datasets/listdatasets', (c) => {
        const filter = new URL(c.url, 'http://x').searchParams.get('filter');
        const datasets = filter === 'owned' ? [makeDataset({ id: 'd1', name: 'Sales' })] : [sharedDataset('view', { id: 'd2', name: 'Census' })];
        return { body: { success: true, datasets, total: 1, page: 1, page_size: 10, total_pages: 1 } };
      }),
      on('POST', '/v1/datasets/listfiles/d1', (c) =>
        (c.body as { path: string }).path === 'q1/' ? { body: listing('q1/', [{ key: 'q1/sales.csv' }]) } : { body: listing('', [{ key: 'readme.txt' }], ['q1/']) },
      ),
      on('POST', '/v1/datasets/get/ludisurl/d1', { body: { success: true, temporary_url: 'https://s3/tmp', expires_at: 1, permanent_url: URL_, pod_url: POD_URL } }),
    );
    renderInProviders(<DatasetSnippetsPanel />);
    expect(await screen.findByRole('button', { name: 'Sales' })).toBeInTheDocument();
    await user().click(screen.getByRole('tab', { name: 'Shared' }));
    expect(await screen.findByRole('button', { name: 'Census' })).toBeInTheDocument();
    await user().click(screen.getByRole('tab', { name: 'My Files' }));
    await user().click(await screen.findByRole('button', { name: 'Sales' }));
    await user().click(await screen.findByRole('button', { name: 'q1' }));
    await user().click(await screen.findByRole('button', { name: 'sales.csv' }));
    const python = await screen.findByLabelText('Python snippet');
    expect(python).toHaveTextContent('pd.read_csv');
    // In a project's container the console's address is the container itself: the pods' one.
    expect(python).toHaveTextContent(POD_URL);
    expect(python).not.toHaveTextContent(URL_);
    expect(calls.find((c) => c.url === '/v1/datasets/get/ludisurl/d1')?.body).toEqual({ path: 'q1/sales.csv' });
    await user().click(screen.getByRole('tab', { name: 'Bash' }));
    expect(await screen.findByLabelText('Bash snippet')).toHaveTextContent(`curl -fsSL -H "x-api-key: $LUDIS_API_KEY" '${POD_URL}' -o 'sales.csv'`);
    await user().click(within(screen.getByRole('tabpanel', { name: 'Bash' })).getByRole('button', { name: 'Copy' }));
    await user().click(screen.getByRole('button', { name: 'Datasets' }));
    expect(await screen.findByRole('tab', { name: 'My Files' })).toBeInTheDocument();
  });

  it('says when a tab has no datasets', async () => {
    signIn();
    mockFetch(on('GET', '/v1/datasets/listdatasets', { body: { success: true, datasets: [], total: 0, page: 1, page_size: 10, total_pages: 1 } }));
    renderInProviders(<DatasetSnippetsPanel />);
    expect(await screen.findByText('You have no datasets yet.')).toBeInTheDocument();
    await user().click(screen.getByRole('tab', { name: 'Shared' }));
    expect(await screen.findByText('No datasets are shared with you.')).toBeInTheDocument();
  });
});
