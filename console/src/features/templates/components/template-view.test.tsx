import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { TemplateView } from '@/features/templates/components/template-view';
import { type MockCall, mockFetch, on } from '@/testing/fetch-mock';
import { renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

const rows = Array.from({ length: 10 }, (_, i) => ({ region: i % 2 ? 'north' : 'south', units: i, price: 2.5 * i }));
const kmeans = {
  success: true,
  file: 'sales.csv',
  columns: ['units', 'price'],
  clusters: [
    { centroid: [2, 5], size: 40 },
    { centroid: [7, 17.5], size: 60 },
  ],
  inertia: 12.5,
  points: [
    [1, 2.5, 0],
    [8, 20, 1],
  ],
  total: 100,
  skipped: 3,
};

function data(...more: Parameters<typeof on>[]) {
  return mockFetch(
    on('GET', '/v1/templates/col.names/a1', { body: { success: true, file: 'sales.csv', columns: ['region', 'units', 'price'] } }),
    on('POST', '/v1/templates/data.paginate/a1', (c) => {
      const start = (c.body as { start: number }).start;
      return { body: { success: true, file: 'sales.csv', rows: start === 0 ? rows : rows.slice(0, 3), count: 23 } };
    }),
    ...more.map((args) => on(...args)),
  );
}

const bodies = (calls: MockCall[], url: string) => calls.filter((c) => c.url === url).map((c) => c.body);

describe('template view', () => {
  it('clusters the first two numeric columns into 4 clusters by default and lists each centre', async () => {
    signIn();
    const calls = data(['POST', '/v1/templates/graph.data/a1', { body: kmeans }]);
    renderWithProviders(<TemplateView id="a1" template="cluster" />);
    const table = await screen.findByRole('table', { name: 'Clusters' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getAllByRole('row')[2]).toHaveTextContent('Cluster 27.00017.50060');
    expect(screen.getByText(/100 rows clustered, 3 left out/)).toBeInTheDocument();
    expect(bodies(calls, '/v1/templates/graph.data/a1')[0]).toEqual({ kind: 'kmeans', columns: ['units', 'price'], clusters: 4 });
    // The data beneath: 10 rows from row 0, then the next page.
    expect(screen.getByText('Data: sales.csv')).toBeInTheDocument();
    expect(screen.getByText('Rows 1–10 of 23')).toBeInTheDocument();
    await user().click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Rows 11–20 of 23')).toBeInTheDocument();
    expect(bodies(calls, '/v1/templates/data.paginate/a1').at(-1)).toEqual({ start: 10, count: 10 });
  });

  it('summarises by a column with no aggregation first, then the one chosen', async () => {
    signIn();
    const calls = data([
      'POST',
      '/v1/templates/graph.data/a1',
      (c: MockCall) => {
        const agg = (c.body as { aggregation: string }).aggregation;
        return agg === 'sum'
          ? { body: { success: true, file: 'sales.csv', labels: ['south', 'north'], values: [20, 25], total: 10 } }
          : { body: { success: true, file: 'sales.csv', labels: rows.map((r) => r.region), values: rows.map((r) => r.units), total: 10 } };
      },
    ]);
    renderWithProviders(<TemplateView id="a1" template="slice-and-dice" />);
    expect(await screen.findByText('10 rows')).toBeInTheDocument();
    expect(bodies(calls, '/v1/templates/graph.data/a1')[0]).toEqual({ kind: 'series', x: 'region', y: 'units', aggregation: 'No aggregation' });
    await user().click(screen.getByLabelText('Aggregation', { selector: 'input:not([type=hidden])' }));
    await user().click(await screen.findByRole('option', { name: 'sum', hidden: true }));
    expect(await screen.findByText('2 groups of region')).toBeInTheDocument();
    expect(bodies(calls, '/v1/templates/graph.data/a1').at(-1)).toEqual({ kind: 'series', x: 'region', y: 'units', aggregation: 'sum' });
  });

  it('waits for Forecast to be turned on, then fits the model and names it', async () => {
    signIn();
    const calls = data(
      ['POST', '/v1/templates/graph.data/a1', { body: kmeans }],
      [
        'POST',
        '/v1/templates/forecast/a1',
        {
          body: {
            success: true, file: 'sales.csv', model: 'ETS(A,A,N)', x: ['m1', 'm2', 'm3', 'm4'], y: [1, 2, 3, 4], fitted: [1, 2, 3, 4],
            moving_average: [null, null, 2, 3], forecast: [5, 6], lower: [4.5, 5], upper: [5.5, 7],
          },
        },
      ],
    );
    renderWithProviders(<TemplateView id="a1" template="campaign" />);
    expect(await screen.findByText(/Waiting: turn on Forecast/)).toBeInTheDocument();
    expect(bodies(calls, '/v1/templates/forecast/a1')).toHaveLength(0);
    // The sidebar segments with 2 to 8 clusters, 4 by default.
    expect(within(screen.getByRole('complementary', { name: 'Segments' })).getByText('Optimal: 4 clusters')).toBeInTheDocument();
    await user().click(screen.getByRole('switch', { name: 'Forecast' }));
    expect(await screen.findByText('ETS(A,A,N)')).toBeInTheDocument();
    expect(screen.getByText(/next value 5.00 \(95 % between 4.50 and 5.50\)/)).toBeInTheDocument();
    expect(bodies(calls, '/v1/templates/forecast/a1')[0]).toEqual({ x: 'region', y: 'units', horizon: 12, window: 3 });
  });

  it('says why when the data cannot be read', async () => {
    signIn();
    mockFetch(on('GET', '/v1/templates/col.names/a1', { status: 400, body: { success: false, code: 'no_csv', message: 'The dataset has no .csv file at its top level' } }));
    renderWithProviders(<TemplateView id="a1" template="cluster" />);
    expect(await screen.findByRole('alert')).toHaveTextContent('The dataset has no .csv file at its top level');
  });

  it('says in place when the file has more rows than template apps read, and when a computation ran out of time', async () => {
    signIn();
    const tooMany = 'sales.csv (26.40 MB) has more than 200,000 rows; template apps read at most 200,000. Choose a smaller file or ask your administrator to raise LUDIS_TEMPLATE_MAX_ROWS';
    mockFetch(
      on('GET', '/v1/templates/col.names/a1', { body: { success: true, file: 'sales.csv', columns: ['region', 'units'] } }),
      on('POST', '/v1/templates/data.paginate/a1', { status: 422, body: { success: false, code: 'too_many_rows', message: tooMany } }),
    );
    renderWithProviders(<TemplateView id="a1" template="cluster" />);
    expect(await screen.findByRole('alert', { name: "The app's data could not be read" })).toHaveTextContent(tooMany);
    expect(screen.queryByLabelText("Loading the app's data")).not.toBeInTheDocument();
  });

  it('shows a forecast that ran out of time as an error, and does not ask again', async () => {
    signIn();
    const late = 'The computation over sales.csv took longer than 20 s and was stopped. Choose a smaller file, or ask your administrator to raise LUDIS_TEMPLATE_TIMEOUT_SECS';
    const calls = data(
      ['POST', '/v1/templates/graph.data/a1', { body: kmeans }],
      ['POST', '/v1/templates/forecast/a1', { status: 503, body: { success: false, code: 'template_timeout', message: late } }],
    );
    renderWithProviders(<TemplateView id="a1" template="campaign" />);
    await user().click(await screen.findByRole('switch', { name: 'Forecast' }));
    expect(await screen.findByText(late)).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Forecasting' })).not.toBeInTheDocument();
    expect(bodies(calls, '/v1/templates/forecast/a1')).toHaveLength(1);
  });

  it('says why a later page of rows cannot be read', async () => {
    signIn();
    mockFetch(
      on('GET', '/v1/templates/col.names/a1', { body: { success: true, file: 'sales.csv', columns: ['region', 'units', 'price'] } }),
      on('POST', '/v1/templates/data.paginate/a1', (c) =>
        (c.body as { start: number }).start === 0
          ? { body: { success: true, file: 'sales.csv', rows, count: 23 } }
          : { status: 503, body: { success: false, code: 'template_timeout', message: 'The computation over sales.csv took longer than 20 s and was stopped.' } },
      ),
      on('POST', '/v1/templates/graph.data/a1', { body: kmeans }),
    );
    renderWithProviders(<TemplateView id="a1" template="cluster" />);
    await user().click(await screen.findByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('alert', { name: 'These rows could not be read' })).toHaveTextContent('took longer than 20 s');
  });
});
