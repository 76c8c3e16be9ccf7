import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { AiChat } from '@/features/assistant/components/ai-chat';
import { CHAT_CONNECT_ERROR, WELCOME_TEXT } from '@/features/assistant/chat-protocol';
import { installFakeWebSocket } from '@/testing/fake-websocket';
import { mockFetch, on } from '@/testing/fetch-mock';
import { renderInProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

const CONFIGURED = { configured: true, model: 'smollm2-135m-instruct' };

async function mount(status: object = CONFIGURED, file: string | null = 'app.py') {
  signIn();
  const sockets = installFakeWebSocket();
  mockFetch(on('GET', '/v1/llm/status', { body: status }));
  renderInProviders(<AiChat entityId="p1" file={file} />);
  return sockets;
}

const conversation = () => screen.getByRole('list', { name: 'Chat with Ludis AI' });
const input = () => screen.getByRole('textbox', { name: 'Ask Ludis AI' });

describe('AI chat (spec 001 §4 "Chat", §7 /aiChatResponse, §8)', () => {
  it('welcomes, sends the conversation with the open file, streams the reply and ends it on complete', async () => {
    const sockets = await mount();
    expect(await screen.findByText(WELCOME_TEXT)).toBeInTheDocument();
    await waitFor(() => expect(sockets.all).toHaveLength(1));
    const ws = sockets.latest();
    expect(ws.url).toMatch(/\/aiChatResponse\?uid=u-1&entityId=p1$/);
    expect(ws.protocols).toEqual(['ludis.v1', 'bearer.access-1']);
    ws.accept();
    await user().type(input(), 'What does it do?{Enter}');
    expect(ws.sentJson).toEqual([{ file: 'app.py', messages: [{ role: 'user', content: 'What does it do?' }] }]);
    expect(screen.getByRole('status', { name: 'Ludis AI is writing' })).toBeInTheDocument();
    expect(input()).toBeDisabled();
    ws.receive('{"type":"token","content":"It prints"}');
    ws.receive('{"type":"token","content":" hello."}');
    expect(within(conversation()).getByText('It prints hello.')).toBeInTheDocument();
    ws.receive('{"type":"complete","content":""}');
    await waitFor(() => expect(input()).not.toBeDisabled());
    expect(conversation()).toHaveAttribute('aria-busy', 'false');
    // The next question carries the conversation so far (not the welcome).
    await user().type(input(), 'And then?{Enter}');
    expect(ws.sentJson.at(-1)).toEqual({
      file: 'app.py',
      messages: [
        { role: 'user', content: 'What does it do?' },
        { role: 'assistant', content: 'It prints hello.' },
        { role: 'user', content: 'And then?' },
      ],
    });
  });

  it("says 'Could not connect to Ludis AI.' and removes the pending reply on an error frame or a dropped socket", async () => {
    const sockets = await mount(CONFIGURED, null);
    await waitFor(() => expect(sockets.all).toHaveLength(1));
    const ws = sockets.latest();
    ws.accept();
    await user().type(input(), 'hi{Enter}');
    expect(ws.sentJson).toEqual([{ messages: [{ role: 'user', content: 'hi' }] }]);
    ws.receive('{"type":"token","content":"Hal"}');
    ws.receive('{"type":"error","content":"too many requests to the assistant: try again in 3 s"}');
    expect(await screen.findByText(CHAT_CONNECT_ERROR)).toBeInTheDocument();
    expect(screen.queryByText('Hal')).not.toBeInTheDocument();
    expect(screen.getByRole('alert', { name: 'Why there is no answer' })).toHaveTextContent('too many requests to the assistant: try again in 3 s');
    expect(within(conversation()).getByText('hi')).toBeInTheDocument();

    await user().type(input(), 'again{Enter}');
    ws.fail();
    await waitFor(() => expect(screen.getByRole('alert', { name: 'Why there is no answer' })).toHaveTextContent('The connection to the assistant was lost'));
    expect(screen.queryByRole('status', { name: 'Ludis AI is writing' })).not.toBeInTheDocument();
  });

  it('clear restarts the conversation from the welcome', async () => {
    const sockets = await mount();
    await waitFor(() => expect(sockets.all).toHaveLength(1));
    sockets.latest().accept();
    await user().type(input(), 'hi{Enter}');
    await user().click(screen.getByRole('button', { name: 'Clear' }));
    expect(within(conversation()).queryByText('hi')).not.toBeInTheDocument();
    expect(within(conversation()).getByText(WELCOME_TEXT)).toBeInTheDocument();
    // The answer that was streaming is dropped with its connection.
    await waitFor(() => expect(sockets.all).toHaveLength(2));
    expect(input()).not.toBeDisabled();
  });

  it('without an assistant says how to configure one and opens no socket', async () => {
    const sockets = await mount({ configured: false, model: '', help: 'The assistant is not configured: an administrator sets LUDIS_AI_URL' });
    expect(await screen.findByText('Ludis AI is not set up')).toBeInTheDocument();
    expect(screen.getByText(/sets LUDIS_AI_URL/)).toBeInTheDocument();
    expect(sockets.all).toHaveLength(0);
  });
});
