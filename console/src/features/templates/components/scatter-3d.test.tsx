import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { ClusterTemplate } from '@/features/templates/components/cluster-template';
import { normalise } from '@/features/templates/components/scatter-3d';
import { type MockCall, type MockReply, mockFetch, on } from '@/testing/fetch-mock';
import { renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

const kmeans3d = {
  success: true,
  file: 'points.csv',
  columns: ['x', 'y', 'z'],
  clusters: [
    { centroid: [0, 0, 0], size: 2 },
    { centroid: [10, 10, 0], size: 1 },
  ],
  inertia: 1,
  points: [
    [0, 0, 0, 0],
    [1, 0, 0, 0],
    [10, 10, 0, 1],
  ],
  total: 3,
  skipped: 0,
};

const kmeans2d = {
  ...kmeans3d,
  columns: ['x', 'y'],
  clusters: [
    { centroid: [0, 0], size: 2 },
    { centroid: [10, 10], size: 1 },
  ],
  points: [
    [0, 0, 0],
    [1, 0, 0],
    [10, 10, 1],
  ],
};

/** The k-means answer for as many columns as were asked for; `threeD` answers the 3D request. */
const byColumns = (threeD: MockReply) => (call: MockCall) => ((call.body as { columns: string[] }).columns.length === 3 ? threeD : { body: kmeans2d });

describe('3D scatter (kmeans3d)', () => {
  it('scales each axis into the cube [-1, 1] on its own; a constant axis sits at 0', () => {
    expect(Array.from(normalise([[0, 5, 7], [10, 15, 7], [5, 10, 7]]))).toEqual([-1, -1, 0, 1, 1, 0, 0, 0, 0]);
    expect(normalise([])).toHaveLength(0);
  });

  it('asks for k-means over three columns; without WebGL it says so and shows the three pairwise views', async () => {
    signIn();
    const calls: MockCall[] = mockFetch(on('POST', '/v1/templates/graph.data/a1', byColumns({ body: kmeans3d })));
    renderWithProviders(<ClusterTemplate id="a1" numeric={['x', 'y', 'z']} />);
    await screen.findByRole('table', { name: 'Clusters' });
    await user().click(screen.getByRole('radio', { name: '3D' }));
    // jsdom has no WebGL: three's renderer cannot start.
    expect(await screen.findByText('This browser cannot draw 3D charts')).toBeInTheDocument();
    for (const name of ['x against y', 'x against z', 'y against z']) expect(screen.getByLabelText(name)).toBeInTheDocument();
    expect(calls.filter((c) => c.url === '/v1/templates/graph.data/a1').map((c) => c.body)).toContainEqual({
      kind: 'kmeans',
      columns: ['x', 'y', 'z'],
      clusters: 4,
    });
  });

  it('never draws the 2D answer it keeps in 3D while the 3D answer comes (its points have no third axis)', async () => {
    signIn();
    mockFetch(on('POST', '/v1/templates/graph.data/a1', byColumns('network-error')));
    renderWithProviders(<ClusterTemplate id="a1" numeric={['x', 'y', 'z']} />);
    await screen.findByLabelText('x against y');
    await user().click(screen.getByRole('radio', { name: '3D' }));
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(screen.queryByLabelText('x against z')).not.toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Clusters' })).not.toBeInTheDocument();
  });
});
