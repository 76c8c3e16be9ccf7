import { render, screen } from '@testing-library/react';
import { RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { createTestRouter } from '@/app/router';

function mockReadyz(status: number, body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })),
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('console shell', () => {
  it('shows each dependency the API reports on the home page', async () => {
    mockReadyz(200, { ready: true, checks: { database: 'ok', cluster: 'ok (v1.34.10)' } });
    render(<RouterProvider router={createTestRouter('/')} />);
    expect(screen.getByRole('heading', { name: 'Ludis' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Platform status' });
    expect(list).toHaveTextContent('database: ok');
    expect(list).toHaveTextContent('cluster: ok (v1.34.10)');
  });

  it('marks a failing dependency as an error', async () => {
    mockReadyz(503, { ready: false, checks: { database: 'ok', cluster: 'error: timed out' } });
    render(<RouterProvider router={createTestRouter('/')} />);
    const item = await screen.findByText(/cluster/);
    expect(item.closest('li')).toHaveClass('status-error');
  });

  it('says when the API cannot be reached', async () => {
    mockReadyz(502, {});
    render(<RouterProvider router={createTestRouter('/')} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('The API cannot be reached: Error: HTTP 502');
  });

  it('answers unknown paths with a not-found page', () => {
    mockReadyz(200, { ready: true, checks: {} });
    render(<RouterProvider router={createTestRouter('/no/such/page')} />);
    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });
});
