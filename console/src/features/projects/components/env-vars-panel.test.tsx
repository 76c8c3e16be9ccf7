import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { ERROR_TOAST_DURATION_MS } from '@/config/constants';
import { EnvVarsPanel } from '@/features/projects/components/env-vars-panel';
import { advance, installManualClock, settle } from '@/testing/clock';
import { type MockCall, mockFetch, on } from '@/testing/fetch-mock';
import { envVar } from '@/testing/projects';
import { renderInProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

function api(vars = [envVar('API_URL', 'https://x'), envVar('TOKEN', 's3cret')]) {
  let list = [...vars];
  return mockFetch(
    on('GET', '/v2/projects/envvar', () => ({ body: { success: true, envVariables: list } })),
    on('POST', '/v2/projects/envvar', (c) => {
      const { key, value } = c.body as { key: string; value: string };
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) return { status: 400, body: { success: false, message: 'Please add valid inputs' } };
      const v = envVar(key, value);
      list = [...list, v];
      return { status: 201, body: { success: true, envVariable: v } };
    }),
    on('PUT', /^\/v2\/projects\/envvar\//, (c) => {
      const id = c.url.split('/').pop()!;
      list = list.map((v) => (v.id === id ? { ...v, value: (c.body as { value: string }).value } : v));
      return { body: { success: true, envVariable: list.find((v) => v.id === id) } };
    }),
    on('DELETE', /^\/v2\/projects\/envvar\//, (c) => {
      list = list.filter((v) => v.id !== c.url.split('/').pop());
      return { body: { success: true, message: 'Deleted' } };
    }),
  );
}

const table = () => screen.getByRole('table', { name: 'Environment variables' });
const sent = (calls: MockCall[], method: string) => calls.filter((c) => c.method === method);

describe('env vars panel', () => {
  it('lists the variables of the project with their values hidden until shown', async () => {
    signIn();
    const calls = api();
    renderInProviders(<EnvVarsPanel projectId="p1" editable />);
    await screen.findByRole('table', { name: 'Environment variables' });
    expect(new URL(calls[0].url, 'http://x').searchParams.get('id')).toBe('p1');
    expect(table()).toHaveTextContent('API_URL');
    expect(table()).not.toHaveTextContent('s3cret');
    await user().click(screen.getByRole('button', { name: 'Show TOKEN' }));
    expect(table()).toHaveTextContent('s3cret');
    expect(screen.getByText('Variables reach the container on its next start.')).toBeInTheDocument();
  });

  it('adds one with key and value', async () => {
    signIn();
    const calls = api([]);
    renderInProviders(<EnvVarsPanel projectId="p1" editable />);
    expect(await screen.findByText('No variables yet.')).toBeInTheDocument();
    await user().type(screen.getByRole('textbox', { name: 'Key' }), 'MODEL');
    await user().type(screen.getByLabelText('Value'), 'xgb{Enter}');
    await screen.findByRole('table', { name: 'Environment variables' });
    expect(sent(calls, 'POST')[0].body).toEqual({ project_uid: 'p1', key: 'MODEL', value: 'xgb' });
    expect(screen.getByRole('textbox', { name: 'Key' })).toHaveValue('');
  });

  it("says 'Please add valid inputs' for 5 s without a key or a value", async () => {
    signIn();
    installManualClock();
    const calls = api([]);
    renderInProviders(<EnvVarsPanel projectId="p1" editable />);
    await settle(() => expect(screen.getByText('No variables yet.')).toBeInTheDocument());
    fireEvent.change(screen.getByRole('textbox', { name: 'Key' }), { target: { value: 'ONLY_KEY' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please add valid inputs');
    await advance(ERROR_TOAST_DURATION_MS - 1);
    expect(screen.getByRole('alert')).toHaveTextContent('Please add valid inputs');
    await advance(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    // Whitespace is no value either.
    fireEvent.change(screen.getByLabelText('Value'), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please add valid inputs');
    expect(sent(calls, 'POST')).toHaveLength(0);
  });

  it("shows the API's refusal of a bad key the same way", async () => {
    signIn();
    api([]);
    renderInProviders(<EnvVarsPanel projectId="p1" editable />);
    await screen.findByText('No variables yet.');
    await user().type(screen.getByRole('textbox', { name: 'Key' }), '1BAD');
    await user().type(screen.getByLabelText('Value'), 'v{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Please add valid inputs');
  });

  it('changes and deletes a value', async () => {
    signIn();
    const calls = api();
    renderInProviders(<EnvVarsPanel projectId="p1" editable />);
    await screen.findByRole('table', { name: 'Environment variables' });
    await user().click(screen.getByRole('button', { name: 'Change TOKEN' }));
    const input = screen.getByRole('textbox', { name: 'New value of TOKEN' });
    await user().clear(input);
    await user().type(input, 'rotated{Enter}');
    await waitFor(() => expect(sent(calls, 'PUT')).toHaveLength(1));
    expect(sent(calls, 'PUT')[0]).toMatchObject({ url: '/v2/projects/envvar/ev-TOKEN', body: { value: 'rotated' } });
    await user().click(await screen.findByRole('button', { name: 'Delete API_URL' }));
    await waitFor(() => expect(table()).not.toHaveTextContent('API_URL'));
    expect(sent(calls, 'DELETE')[0].url).toBe('/v2/projects/envvar/ev-API_URL');
  });

  it('without edit access: keys only (the API sends no values), nothing to add, change or delete', async () => {
    signIn();
    api([envVar('API_URL', null), envVar('TOKEN', null)]);
    renderInProviders(<EnvVarsPanel projectId="p1" editable={false} />);
    await screen.findByRole('table', { name: 'Environment variables' });
    expect(within(table()).getAllByText('hidden')).toHaveLength(2);
    expect(within(table()).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Key' })).not.toBeInTheDocument();
  });
});
