import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { CreateInsightModal } from '@/features/insights/components/create-insight-modal';
import { IMPORT_MESSAGES, ImportInsightModal } from '@/features/insights/components/import-insight-modal';
import { makeInsight } from '@/testing/insights';
import { mockFetch, on } from '@/testing/fetch-mock';
import { renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

function fileInput() {
  return document.querySelector('input[type="file"]') as HTMLInputElement;
}

describe('import app', () => {
  it('names every missing field with the spec messages and sends nothing', async () => {
    signIn();
    const calls = mockFetch();
    renderWithProviders(<ImportInsightModal opened onClose={() => undefined} />);
    await user().click(await screen.findByRole('button', { name: 'Import' }));
    expect(screen.getByText('Empty name not allowed')).toBeInTheDocument();
    expect(screen.getByText('Empty description not allowed')).toBeInTheDocument();
    expect(screen.getByText('Empty form type not allowed')).toBeInTheDocument();
    await user().selectOptions(screen.getByRole('combobox', { name: /^Type/ }), 'Application');
    await user().click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Empty URL not allowed')).toBeInTheDocument();
    await user().selectOptions(screen.getByRole('combobox', { name: /^Type/ }), 'Report');
    await user().click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Attach a file')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it("imports an external app through /v1/applications/importapp: 'App Created Successfully'", async () => {
    signIn();
    const onClose = vi.fn();
    const calls = mockFetch(
      on('POST', '/v1/applications/importapp', { status: 201, body: { success: true, message: 'App Created Successfully', application: makeInsight() } }),
    );
    renderWithProviders(<ImportInsightModal opened onClose={onClose} />);
    await user().type(await screen.findByRole('textbox', { name: /^Name/ }), 'Grafana');
    await user().type(screen.getByRole('textbox', { name: /^Description/ }), 'Ops board');
    await user().selectOptions(screen.getByRole('combobox', { name: /^Type/ }), 'Application');
    await user().type(screen.getByRole('textbox', { name: /^URL/ }), 'https://grafana.example.com');
    await user().click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByText(IMPORT_MESSAGES.appCreated)).toBeInTheDocument();
    expect(IMPORT_MESSAGES.appCreated).toBe('App Created Successfully');
    expect(calls[0].body).toEqual({
      application: { name: 'Grafana', description: 'Ops board', app_type: 'application', app_url: 'https://grafana.example.com' },
    });
    expect(onClose).toHaveBeenCalled();
  });

  it('marks the URL field when the server refuses the address', async () => {
    signIn();
    const onClose = vi.fn();
    const invalid = 'Enter a valid URL (http:// or https://)';
    mockFetch(on('POST', '/v1/applications/importapp', { status: 400, body: { success: false, code: 'invalid_url', message: invalid } }));
    renderWithProviders(<ImportInsightModal opened onClose={onClose} />);
    await user().type(await screen.findByRole('textbox', { name: /^Name/ }), 'Grafana');
    await user().type(screen.getByRole('textbox', { name: /^Description/ }), 'Ops board');
    await user().selectOptions(screen.getByRole('combobox', { name: /^Type/ }), 'Application');
    await user().type(screen.getByRole('textbox', { name: /^URL/ }), 'ftp://grafana');
    await user().click(screen.getByRole('button', { name: 'Import' }));
    await vi.waitFor(() => expect(screen.getByRole('textbox', { name: /^URL/ })).toHaveAccessibleDescription(invalid));
    expect(screen.getByRole('textbox', { name: /^Name/ })).not.toHaveAccessibleDescription(invalid);
    expect(onClose).not.toHaveBeenCalled();
  });

  it("imports a PDF report as multipart form data: 'Report has successfully imported.'", async () => {
    signIn();
    const calls = mockFetch(
      on('POST', '/v1/applications/importreport', {
        status: 201,
        body: { success: true, message: 'Report has successfully imported.', application: makeInsight({ app_type: 'user_report' }) },
      }),
    );
    renderWithProviders(<ImportInsightModal opened onClose={() => undefined} />);
    await user().type(await screen.findByRole('textbox', { name: /^Name/ }), 'Annual');
    await user().type(screen.getByRole('textbox', { name: /^Description/ }), 'The 2025 report');
    await user().selectOptions(screen.getByRole('combobox', { name: /^Type/ }), 'Report');
    fireEvent.change(fileInput(), { target: { files: [new File(['x'], 'notes.txt', { type: 'text/plain' })] } });
    await user().click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Only PDF files can be imported')).toBeInTheDocument();
    const pdf = new File(['%PDF-1.4'], 'annual.pdf', { type: 'application/pdf' });
    fireEvent.change(fileInput(), { target: { files: [pdf] } });
    await user().click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Report has successfully imported.')).toBeInTheDocument();
    const form = calls[0].body as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect(form.get('name')).toBe('Annual');
    expect(form.get('description')).toBe('The 2025 report');
    expect((form.get('file') as File).name).toBe('annual.pdf');
    // The browser sets the multipart boundary itself.
    expect(calls[0].headers.get('Content-Type')).toBeNull();
  });
});

describe('create insight', () => {
  it("requires a name and a URL and posts to /v1/applications", async () => {
    signIn();
    const calls = mockFetch(
      on('GET', '/v1/images/defaults', { body: { success: true, images: [{ name: 'a.svg', url: '/v1/images/defaults/a.svg' }] } }),
      on('GET', '/v1/config', { body: { success: true, config: { photoUpload: true } } }),
      on('POST', '/v1/applications', { status: 201, body: { success: true, message: 'App Created Successfully', application: makeInsight() } }),
    );
    renderWithProviders(<CreateInsightModal opened onClose={() => undefined} />);
    await user().click(await screen.findByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Empty name not allowed')).toBeInTheDocument();
    expect(screen.getByText('Empty URL not allowed')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    await user().type(screen.getByRole('textbox', { name: /^Name/ }), 'Churn');
    await user().type(screen.getByRole('textbox', { name: /^App URL/ }), 'https://churn.example.com');
    await user().click(await screen.findByRole('button', { name: 'Default image 1' }));
    await user().click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('App Created Successfully')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      application: { name: 'Churn', description: '', app_type: 'application', img_path: '/v1/images/defaults/a.svg', app_url: 'https://churn.example.com' },
    });
  });
});
