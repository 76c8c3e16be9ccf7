import { Select } from '@mantine/core';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import type { DatasetPicker } from '@/features/templates/components/slots';
import { TemplateWizard } from '@/features/templates/components/template-wizard';
import { WIZARD_MESSAGES } from '@/features/templates/utils/constants';
import { mockFetch, on } from '@/testing/fetch-mock';
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

describe('template wizard', () => {
  it('enables Next only when the step is satisfied, says why, and creates the app on the last step', async () => {
    signIn();
    const calls = mockFetch(
      on('POST', '/v2/applications/create', { status: 201, body: { success: true, message: 'App Created Successfully', application: { id: 'a9' } } }),
    );
    const { router } = render();
    expect(next()).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent(WIZARD_MESSAGES.template);
    await user().click(screen.getByRole('radio', { name: 'Cluster' }));
    await user().click(next());

    expect(screen.getByRole('status')).toHaveTextContent(WIZARD_MESSAGES.dataset);
    expect(next()).toBeDisabled();
    await user().click(screen.getByLabelText('Dataset', { selector: 'input:not([type=hidden])' }));
    await user().click(await screen.findByRole('option', { name: 'Sales', hidden: true }));
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
    expect(review).toHaveTextContent('Name: Segments');
    await user().click(next());
    expect(await screen.findByText('landed on /app/:id')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/app/a9');
    expect(calls.find((c) => c.url === '/v2/applications/create')?.body).toEqual({
      application: { name: 'Segments', description: 'Who buys what', template: 'cluster', dataset_ids: ['d1'] },
    });
  });

  it('jumps back by a step marker, not forward past an unsatisfied step; Back on the first step returns to /insights', async () => {
    signIn();
    mockFetch();
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
    mockFetch(on('POST', '/v2/applications/create', { status: 404, body: { success: false, code: 'dataset_not_found', message: 'Dataset not found' } }));
    render();
    await user().click(screen.getByRole('radio', { name: 'Optimization (campaign)' }));
    await user().click(next());
    await user().click(screen.getByLabelText('Dataset', { selector: 'input:not([type=hidden])' }));
    await user().click(await screen.findByRole('option', { name: 'Sales', hidden: true }));
    await user().click(next());
    await user().type(screen.getByRole('textbox', { name: /App name/ }), 'Campaign');
    await user().click(next());
    await user().click(next());
    expect(await screen.findByRole('alert')).toHaveTextContent('Dataset not found');
    expect(next()).toHaveTextContent('Create');
  });
});
