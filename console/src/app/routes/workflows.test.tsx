import { render, screen } from '@testing-library/react';
import { RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';

import { AppProvider } from '@/app/provider';
import { createTestRouter } from '@/app/router';
import { mockFetch, on } from '@/testing/fetch-mock';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';
import { sharedWorkflow } from '@/testing/workflows';

const roles = ['developer', 'management', 'administrator'];

describe('/workflows/{id} route', () => {
  it('gives a viewer the discussion of the workflow (comments), without Share; the conversation is asked for once opened', async () => {
    signIn({ uid: 'u-1', email: 'ada@example.com' }, true);
    const workflow = sharedWorkflow('view', { id: 'w1', name: 'Nightly' });
    const calls = mockFetch(
      on('GET', '/v1/flighting', {
        body: { success: true, message: '', organization: '7', flightings: [{ key: 'workflows', name: 'Workflows', active: true, user_roles: roles }], editable_roles: roles },
      }),
      on('GET', '/v1/config', { body: { success: true, config: { supportEmail: 'help@ludis.test', documentationUrl: 'https://docs.test', roles, photoUpload: true } } }),
      on('GET', '/v2/workflows/w1', { body: { success: true, workflow } }),
      on('GET', '/v2/workflows/runs/w1', { body: { success: true, runs: [], page: 1, total: 0, total_pages: 0 } }),
      on('POST', '/v1/comment/list', { body: { success: true, conversation: [] } }),
    );
    render(
      <AppProvider>
        <RouterProvider router={createTestRouter('/workflows/w1')} />
      </AppProvider>,
    );
    expect(await screen.findByRole('heading', { name: 'Nightly' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Share' })).not.toBeInTheDocument();
    expect(calls.some((c) => c.url === '/v1/comment/list')).toBe(false);
    await user().click(screen.getByRole('button', { name: 'Discussion' }));
    expect(await screen.findByText('No comments yet. Start the discussion.')).toBeInTheDocument();
    expect(calls.find((c) => c.url === '/v1/comment/list')?.body).toEqual({ comments: { reference_id: 'w1' } });
  });
});
