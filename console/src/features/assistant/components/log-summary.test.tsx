import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { LogSummaryButton, SUMMARY_ERROR } from '@/features/assistant/components/log-summary';
import { mockFetch, on } from '@/testing/fetch-mock';
import { renderInProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

describe('log summary (spec 001 §4, §7 POST /v1/llm/{id}/logsummary, §8)', () => {
  it("reads 'Loading...' while waiting, then shows the summary in a closable box", async () => {
    signIn();
    // The answer waits until the test releases it, so the pending state can be seen.
    let release: () => void = () => undefined;
    const answered = new Promise<void>((r) => (release = r));
    const bodies: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: Request) => {
        bodies.push(await input.json());
        await answered;
        return new Response(JSON.stringify({ success: true, summary: 'The app started and served two requests.' }), {
          headers: { 'Content-Type': 'application/json' },
        });
      }),
    );
    renderInProviders(<LogSummaryButton id="p1" entity="project" lines={['Serving on :8501', 'GET / 200']} />);
    await user().click(screen.getByRole('button', { name: 'Summarize' }));
    expect(await screen.findByRole('button', { name: 'Loading...' })).toBeDisabled();
    expect(bodies).toEqual([{ logs: 'Serving on :8501\nGET / 200', entity: 'project' }]);
    release();
    expect(await screen.findByRole('alert', { name: 'Log summary' })).toHaveTextContent('The app started and served two requests.');
    await user().click(screen.getByRole('button', { name: 'Close the summary' }));
    expect(screen.queryByText('The app started and served two requests.')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Summarize' })).toBeEnabled();
  });

  it("says 'Could not retrieve log summary.' with the server's reason", async () => {
    signIn();
    mockFetch(on('POST', '/v1/llm/p1/logsummary', { status: 502, body: { success: false, code: 'ai_unavailable', message: 'the provider did not answer in time' } }));
    renderInProviders(<LogSummaryButton id="p1" entity="project" lines={['x']} />);
    await user().click(screen.getByRole('button', { name: 'Summarize' }));
    expect(await screen.findByText(SUMMARY_ERROR)).toBeInTheDocument();
    expect(screen.getByRole('alert', { name: 'Why there is no summary' })).toHaveTextContent('the provider did not answer in time');
  });

  it('is disabled while there are no log lines', () => {
    signIn();
    mockFetch();
    renderInProviders(<LogSummaryButton id="p1" entity="project" lines={[]} />);
    expect(screen.getByRole('button', { name: 'Summarize' })).toBeDisabled();
  });
});
