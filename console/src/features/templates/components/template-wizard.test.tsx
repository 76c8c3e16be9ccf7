import { Select } from '@mantine/core';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import type { DatasetPicker } from '@/features/templates/components/slots';
import { FILE_MESSAGE } from '@/features/templates/components/template-file-field';
import { TemplateWizard } from '@/features/templates/components/template-wizard';
import { WIZARD_MESSAGES } from '@/features/templates/utils/constants';
import { type Handler, mockFetch, on } from '@/testing/fetch-mock';
import { landing, renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

const picker: DatasetPicker = ({ value, onChange }) => (
  <Select label="Dataset" data={[{ value: 'd1', label: 'Sales' }]} value={value} onChange={(id) => onChange(id, id ? 'Sales' : '')} />
);

function render() {
  return renderWithProviders(<TemplateWizard datasetPicker={picker} />, {
    url: '/add-template',
    path: '/add-template',
    routes: [landing('/insights'), landing('/app/:id')],
  });
}

const next = () => screen.getByRole('button', { name: /^(Next|Create)$/ });

const TOO_MANY =
  'sales.csv (26.40 MB) has more than 200,000 rows; template apps read at most 200,000. Choose a smaller file or ask your administrator to raise LUDIS_TEMPLATE_MAX_ROWS';

/**
 * Dataset d1's data files, as the API lists them (the default is its first .csv), and the row
 * check of each: points.csv fits, sales.csv has too many rows.
 */
function dataFiles(files = [
  { file: 'a-book.xlsx', size: 9000, size_text: '9.00 KB' },
  { file: 'points.csv', size: 2700, size_text: '2.70 KB' },
  { file: 'sales.csv', size: 26_400_000, size_text: '26.40 MB' },
]): Handler[] {
  const csv = files.find((f) => f.file.endsWith('.csv'));
  return [
    on('GET', '/v1/templates/datasets/d1/files', { body: { success: true, files, default_file: csv?.file ?? null, max_rows: 200_000 } }),
    on('GET', '/v1/templates/datasets/d1/rows', (c) => {
      const file = new URL(c.url, 'http://x').searchParams.get('file');
      return file === 'sales.csv'
        ? { body: { success: true, file, size: 26_400_000, rows: null, max_rows: 200_000, fits: false, message: TOO_MANY } }
        : { body: { success: true, file, size: 2700, rows: 60, max_rows: 200_000, fits: true, message: null } };
    }),
  ];
}

async function chooseDataset() {
  await user().click(screen.getByLabelText('Dataset', { selector: 'input:not([type=hidden])' }));
  await user().click(await screen.findByRole('option', { name: 'Sales', hidden: true }));
}

describe('template wizard', () => {
  it('enables Next only when the step is satisfied, says why, and creates the app on the last step', async () => {
    signIn();
    const calls = mockFetch(
      ...dataFiles(),
      on('POST', '/v2/applications/create', { status: 201, body: { success: true, message: 'App Created Successfully', application: { id: 'a9' } } }),
    );
    const { router } = render();
    expect(next()).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent(WIZARD_MESSAGES.template);
    await user().click(screen.getByRole('radio', { name: 'Cluster' }));
    await user().click(next());

    expect(screen.getByRole('status')).toHaveTextContent(WIZARD_MESSAGES.dataset);
    expect(next()).toBeDisabled();
    await chooseDataset();
    // The dataset's data files with their sizes; the first .csv is chosen, and it fits.
    expect(await screen.findByRole('radio', { name: 'points.csv (2.70 KB)' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'a-book.xlsx (9.00 KB)' })).not.toBeChecked();
    expect(await screen.findByText('points.csv: 60 rows (template apps read at most 200,000).')).toBeInTheDocument();
    await user().click(next());

    expect(screen.getByRole('status')).toHaveTextContent(WIZARD_MESSAGES.name);
    await user().type(screen.getByRole('textbox', { name: /App name/ }), '   ');
    expect(next()).toBeDisabled();
    await user().type(screen.getByRole('textbox', { name: /App name/ }), 'Segments');
    await user().type(screen.getByRole('textbox', { name: 'Description' }), 'Who buys what');
    await user().click(next());

    expect(next()).toHaveTextContent('Create');
    const review = screen.getByLabelText('Review');
    expect(review).toHaveTextContent('Template: Cluster');
    expect(review).toHaveTextContent('Dataset: Sales');
    expect(review).toHaveTextContent('File: points.csv (2.70 KB)');
    expect(review).toHaveTextContent('Name: Segments');
    await user().click(next());
    expect(await screen.findByText('landed on /app/:id')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/app/a9');
    expect(calls.find((c) => c.url === '/v2/applications/create')?.body).toEqual({
      application: { name: 'Segments', description: 'Who buys what', template: 'cluster', dataset_ids: ['d1'], file: 'points.csv' },
    });
  });

  it('keeps the file chosen, and warns before Create of a file with more rows than template apps read', async () => {
    signIn();
    const calls = mockFetch(
      ...dataFiles(),
      on('POST', '/v2/applications/create', { status: 201, body: { success: true, message: 'App Created Successfully', application: { id: 'a9' } } }),
    );
    render();
    await user().click(screen.getByRole('radio', { name: 'Cluster' }));
    await user().click(next());
    await chooseDataset();
    await user().click(await screen.findByRole('radio', { name: 'sales.csv (26.40 MB)' }));
    expect(screen.getByRole('radio', { name: 'sales.csv (26.40 MB)' })).toBeChecked();
    // Said on the step itself…
    expect(await screen.findByRole('alert', { name: 'Too many rows for a template app' })).toHaveTextContent(TOO_MANY);
    await user().click(next());
    await user().type(screen.getByRole('textbox', { name: /App name/ }), 'Big');
    await user().click(next());
    // …and again on the review, beside the file; Create is still possible.
    expect(screen.getByLabelText('Review')).toHaveTextContent('File: sales.csv (26.40 MB)');
    expect(screen.getByRole('alert', { name: 'Too many rows for a template app' })).toHaveTextContent(TOO_MANY);
    expect(next()).toBeEnabled();
    await user().click(next());
    expect(await screen.findByText('landed on /app/:id')).toBeInTheDocument();
    expect((calls.find((c) => c.url === '/v2/applications/create')?.body as { application: { file: string } }).application.file).toBe('sales.csv');
  });

  it('cannot go on from a dataset that has no data file, and says why', async () => {
    signIn();
    mockFetch(...dataFiles([]));
    render();
    await user().click(screen.getByRole('radio', { name: 'Cluster' }));
    await user().click(next());
    await chooseDataset();
    expect(await screen.findByRole('alert', { name: 'No data file' })).toHaveTextContent('This dataset has no .csv, .xlsx or .xls file at its top level');
    expect(screen.getByRole('status')).toHaveTextContent(FILE_MESSAGE);
    expect(next()).toBeDisabled();
  });

  it('jumps back by a step marker, not forward past an unsatisfied step; Back on the first step returns to /insights', async () => {
    signIn();
    mockFetch(...dataFiles());
    const { router } = render();
    // The Name marker cannot be reached before a template and a dataset are chosen.
    await user().click(screen.getByRole('button', { name: /Name/ }));
    expect(screen.queryByRole('textbox', { name: /App name/ })).not.toBeInTheDocument();
    await user().click(screen.getByRole('radio', { name: 'Summary (slice and dice)' }));
    await user().click(next());
    await user().click(screen.getByRole('button', { name: /Template/ }));
    expect(screen.getByRole('radio', { name: 'Summary (slice and dice)' })).toBeChecked();
    await user().click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByText('landed on /insights')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/insights');
  });

  it('shows the refusal of the server and keeps the draft', async () => {
    signIn();
    mockFetch(...dataFiles(), on('POST', '/v2/applications/create', { status: 404, body: { success: false, code: 'dataset_not_found', message: 'Dataset not found' } }));
    render();
    await user().click(screen.getByRole('radio', { name: 'Optimization (campaign)' }));
    await user().click(next());
    await chooseDataset();
    await screen.findByRole('radio', { name: 'points.csv (2.70 KB)' });
    await user().click(next());
    await user().type(screen.getByRole('textbox', { name: /App name/ }), 'Campaign');
    await user().click(next());
    await user().click(next());
    expect(await screen.findByRole('alert')).toHaveTextContent('Dataset not found');
    expect(next()).toHaveTextContent('Create');
  });
});
