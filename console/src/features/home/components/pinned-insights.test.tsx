import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { NO_PINNED, PinnedInsights } from '@/features/home/components/pinned-insights';
import { renderWithProviders } from '@/testing/render';

type Item = { id: string; name: string };
const render = (props: { items?: Item[]; isPending?: boolean; error?: Error | null }) =>
  renderWithProviders(
    <PinnedInsights<Item>
      items={props.items}
      isPending={props.isPending ?? false}
      error={props.error ?? null}
      getKey={(i) => i.id}
      renderItem={(i) => <p>card {i.name}</p>}
    />,
  );

describe('pinned insights', () => {
  it("says 'You have no pinned assets...' and links to the dashboard", async () => {
    render({ items: [] });
    expect(await screen.findByText(NO_PINNED)).toBeInTheDocument();
    expect(NO_PINNED).toBe('You have no pinned assets...');
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/insights');
  });

  it('shows at most 6, each drawn by renderItem', async () => {
    const items = Array.from({ length: 8 }, (_, i) => ({ id: String(i), name: `App ${i}` }));
    render({ items });
    const list = await screen.findByRole('list', { name: 'Pinned insights' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(6);
    expect(within(list).getByText('card App 0')).toBeInTheDocument();
    expect(within(list).queryByText('card App 6')).not.toBeInTheDocument();
  });

  it('shows skeletons while loading and the error in place', async () => {
    const { unmount } = render({ isPending: true });
    expect(screen.getByLabelText('Loading pinned insights')).toBeInTheDocument();
    expect(screen.queryByText(NO_PINNED)).not.toBeInTheDocument();
    unmount();
    render({ error: new Error('boom') });
    expect(await screen.findByText('boom')).toBeInTheDocument();
  });
});
