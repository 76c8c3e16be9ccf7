import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { COMMENTS_POLL_MS } from '@/config/constants';

import { getCommentsQueryOptions } from '@/features/comments/api/get-comments';
import { CommentsPanel, EMPTY_COMMENT } from '@/features/comments/components/comments-panel';
import { advance, settle, installManualClock } from '@/testing/clock';
import { mockFetch, on } from '@/testing/fetch-mock';
import { renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

const now = Math.floor(Date.now() / 1000);
const first = { id: 'c1', content: 'Looks good', reference_id: 'a1', author_uid: 'g', author_display_name: 'Grace Hopper', created_at: now - 60 };

describe('comments panel', () => {
  it('polls quietly every 5 s', () => {
    const options = getCommentsQueryOptions('a1');
    expect(options.refetchInterval).toBe(5000);
    expect(options.meta).toEqual({ silent: true });
  });

  it('lists the conversation with author and relative time', async () => {
    signIn();
    const calls = mockFetch(on('POST', '/v1/comment/list', { body: { success: true, conversation: [first] } }));
    renderWithProviders(<CommentsPanel referenceId="a1" />);
    const list = await screen.findByRole('list', { name: 'Conversation' });
    const item = within(list).getByRole('listitem');
    expect(item).toHaveTextContent('Grace Hopper');
    expect(item).toHaveTextContent('Looks good');
    expect(item).toHaveTextContent(/\d\d:\d\d (AM|PM) (Today|Yesterday)/);
    expect(calls[0].body).toEqual({ comments: { reference_id: 'a1' } });
  });

  it('asks again after 5 s', async () => {
    signIn();
    installManualClock();
    const calls = mockFetch(on('POST', '/v1/comment/list', { body: { success: true, conversation: [] } }));
    renderWithProviders(<CommentsPanel referenceId="a1" />);
    await settle(() => expect(screen.getByText('No comments yet. Start the discussion.')).toBeInTheDocument());
    expect(calls).toHaveLength(1);
    await advance(COMMENTS_POLL_MS - 1);
    expect(calls).toHaveLength(1);
    await advance(1);
    expect(calls).toHaveLength(2);
    expect(calls[1].at - calls[0].at).toBe(COMMENTS_POLL_MS);
    await settle(() => expect(screen.getByText('No comments yet. Start the discussion.')).toBeInTheDocument());
    // No loading skeleton while polling.
    expect(screen.queryByLabelText('Loading comments')).not.toBeInTheDocument();
  });

  it('posts on Enter and refuses a blank comment', async () => {
    signIn();
    const mine = { ...first, id: 'c2', content: 'Ship it', author_display_name: 'Ada Lovelace', created_at: now };
    let posted = false;
    const calls = mockFetch(
      on('POST', '/v1/comment/list', () => ({ body: { success: true, conversation: posted ? [first, mine] : [first] } })),
      on('POST', '/v1/comment/createComment', () => {
        posted = true;
        return { status: 201, body: { success: true, comment: mine } };
      }),
    );
    renderWithProviders(<CommentsPanel referenceId="a1" />);
    const input = await screen.findByRole('textbox', { name: 'Add a comment' });
    await user().type(input, '   {Enter}');
    expect(await screen.findByText(EMPTY_COMMENT)).toBeInTheDocument();
    await user().type(input, 'Ship it{Enter}');
    expect(await screen.findByText('Ship it')).toBeInTheDocument();
    expect(calls.filter((c) => c.url === '/v1/comment/createComment').map((c) => c.body)).toEqual([
      { comment: { content: 'Ship it', reference_id: 'a1' } },
    ]);
    expect(input).toHaveValue('');
  });
});
