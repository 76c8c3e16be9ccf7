import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { DatasetEditForm, validateDatasetEdit } from '@/features/datasets/components/dataset-edit-form';
import { makeDataset, sharedDataset } from '@/testing/datasets';
import { type Handler, mockFetch, on } from '@/testing/fetch-mock';
import { landing, renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

function setup(dataset = makeDataset({ id: 'd1', name: 'Sales', description: 'Monthly' }), ...more: Handler[]) {
  signIn();
  const calls = mockFetch(on('POST', `/v1/datasets/getdatasetdetails/${dataset.id}`, { body: { success: true, dataset } }), ...more);
  const view = renderWithProviders(<DatasetEditForm id={dataset.id} />, {
    url: `/datasets/edit/${dataset.id}`,
    path: '/datasets/edit/:id',
    routes: [landing('/datasets/:id', 'the dataset page')],
  });
  return { calls, ...view };
}

describe('dataset edit form', () => {
  it('validates both fields', () => {
    expect(validateDatasetEdit({ name: ' ', description: '' })).toEqual({ name: 'Empty name not allowed', description: 'Empty description not allowed' });
    expect(validateDatasetEdit({ name: 'a', description: 'b' })).toEqual({ name: undefined, description: undefined });
  });

  it("has a back link, requires name and description, and 'Update Dataset' saves and returns to the dataset", async () => {
    const { calls, router } = setup(
      undefined,
      on('PUT', '/v1/datasets/updatedataset/d1', (c) => ({
        body: { success: true, message: 'Dataset Updated Successfully', dataset: makeDataset({ id: 'd1', ...(c.body as { dataset: object }).dataset }) },
      })),
    );
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    expect(name).toHaveValue('Sales');
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: 'Sales' })).toHaveAttribute('href', '/datasets/d1');
    expect(within(crumbs).getByRole('link', { name: 'Datasets' })).toHaveAttribute('href', '/datasets');
    const description = screen.getByRole('textbox', { name: /^Description/ });
    expect(description).toBeRequired();
    expect(description).toHaveAccessibleDescription('Required to save changes: say what the dataset holds.');
    await user().clear(name);
    await user().clear(description);
    await user().type(description, '   ');
    expect(description).toHaveValue('');
    await user().click(screen.getByRole('button', { name: 'Update Dataset' }));
    expect(screen.getByText('Empty name not allowed')).toBeInTheDocument();
    expect(screen.getByText('Empty description not allowed')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    await user().type(name, 'Sales 2026 ');
    await user().type(description, 'Every month');
    await user().click(screen.getByRole('button', { name: 'Update Dataset' }));
    expect(await screen.findByText('the dataset page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/datasets/d1');
    expect(screen.getByText('Dataset updated!')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ dataset: { name: 'Sales 2026', description: 'Every month' } });
  });

  it("says 'Update Dataset failed' and shows the server's reason", async () => {
    setup(undefined, on('PUT', '/v1/datasets/updatedataset/d1', { status: 400, body: { success: false, code: 'invalid', message: 'Empty description not allowed' } }));
    await screen.findByRole('textbox', { name: /^Name/ });
    await user().click(screen.getByRole('button', { name: 'Update Dataset' }));
    expect(await screen.findByText('Update Dataset failed')).toBeInTheDocument();
    const form = screen.getByRole('button', { name: 'Update Dataset' }).closest('form')!;
    expect(within(form).getByRole('alert')).toHaveTextContent('Empty description not allowed');
  });

  it('needs edit access', async () => {
    setup(sharedDataset('view', { id: 'd9' }));
    expect(await screen.findByText('You need edit access')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Update Dataset' })).not.toBeInTheDocument();
  });
});
