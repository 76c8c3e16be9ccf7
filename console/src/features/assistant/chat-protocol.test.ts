import { describe, expect, it } from 'vitest';

import { chatReducer, conversationOf, initialChat, parseChatFrame, WELCOME_ID, WELCOME_TEXT } from '@/features/assistant/chat-protocol';

describe('chat protocol (features/assistant/chat-protocol.ts)', () => {
  it('reads token, complete and error frames, and nothing else', () => {
    expect(parseChatFrame('{"type":"token","content":"Hel"}')).toEqual({ type: 'token', content: 'Hel' });
    expect(parseChatFrame('{"type":"complete","content":""}')).toEqual({ type: 'complete' });
    expect(parseChatFrame('{"type":"error","content":"too many requests"}')).toEqual({ type: 'error', content: 'too many requests' });
    expect(parseChatFrame('{"type":"token"}')).toBeNull();
    expect(parseChatFrame('not json')).toBeNull();
    expect(parseChatFrame('null')).toBeNull();
    expect(parseChatFrame(new ArrayBuffer(2))).toBeNull();
  });

  it('starts with the welcome, streams a reply into place and keeps it when complete', () => {
    let s = initialChat(1);
    expect(s.messages).toEqual([{ id: WELCOME_ID, role: 'assistant', content: WELCOME_TEXT, timestamp: 1 }]);
    s = chatReducer(s, { type: 'asked', text: '  What is a DAG?  ', now: 2 });
    expect(s.messages.at(-1)).toMatchObject({ role: 'user', content: 'What is a DAG?', timestamp: 2 });
    expect(s.pending).toMatchObject({ role: 'assistant', content: '' });
    // A second question waits for the answer.
    expect(chatReducer(s, { type: 'asked', text: 'again', now: 3 })).toBe(s);
    s = chatReducer(s, { type: 'token', content: 'A directed' });
    s = chatReducer(s, { type: 'token', content: ' graph.' });
    expect(s.pending?.content).toBe('A directed graph.');
    s = chatReducer(s, { type: 'completed' });
    expect(s.pending).toBeNull();
    expect(s.messages.map((m) => m.content)).toEqual([WELCOME_TEXT, 'What is a DAG?', 'A directed graph.']);
    expect(conversationOf(s.messages)).toEqual([
      { role: 'user', content: 'What is a DAG?' },
      { role: 'assistant', content: 'A directed graph.' },
    ]);
  });

  it('removes the pending reply on failure and keeps the reason; clear starts again', () => {
    let s = chatReducer(initialChat(1), { type: 'asked', text: 'hi', now: 2 });
    s = chatReducer(s, { type: 'token', content: 'Hal' });
    s = chatReducer(s, { type: 'failed', reason: 'the provider did not answer in time' });
    expect(s.pending).toBeNull();
    expect(s.messages.map((m) => m.content)).toEqual([WELCOME_TEXT, 'hi']);
    expect(s.lastError).toBe('the provider did not answer in time');
    expect(chatReducer(s, { type: 'asked', text: 'hi again', now: 3 }).lastError).toBeNull();
    expect(chatReducer(s, { type: 'cleared', now: 9 })).toEqual(initialChat(9));
    // Tokens with no question awaiting are ignored; blank questions are not asked.
    expect(chatReducer(initialChat(1), { type: 'token', content: 'x' })).toEqual(initialChat(1));
    expect(chatReducer(initialChat(1), { type: 'asked', text: '   ', now: 2 })).toEqual(initialChat(1));
  });
});
