/**
 * The assistant's chat (spec 001 §3 "AI chat message", §4 "Chat", §7 `/aiChatResponse`, §8): the
 * conversation's messages, the frames the server sends, and what each event does to the
 * conversation. Pure, so every step is tested without a socket.
 */
export type ChatRole = 'user' | 'assistant';

/** An AI chat message (spec 001 §3): id, content, role, timestamp. */
export type ChatMessage = { id: string; content: string; role: ChatRole; timestamp: number };

/** What the server sends: parts of the answer, its end, or why there is none. */
export type ChatFrame = { type: 'token'; content: string } | { type: 'complete' } | { type: 'error'; content: string };

export const CHAT_PATH = '/aiChatResponse';
/** Spec 001 §8: a chat socket error; the pending reply is removed. */
export const CHAT_CONNECT_ERROR = 'Could not connect to Ludis AI.';
export const WELCOME_ID = 'welcome';
export const WELCOME_TEXT =
  "Hi, I'm Ludis AI. Ask me about your code, your data or your logs — I can see the file you have open and your preview's recent log.";

/** The frame in a text message, or null for anything else. */
export function parseChatFrame(data: string | ArrayBuffer): ChatFrame | null {
  if (typeof data !== 'string') return null;
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { type, content } = value as { type?: unknown; content?: unknown };
  if (type === 'token' && typeof content === 'string') return { type, content };
  if (type === 'complete') return { type };
  if (type === 'error') return { type, content: typeof content === 'string' ? content : '' };
  return null;
}

export type ChatState = {
  messages: ChatMessage[];
  /** The reply being written, shown as it streams in; null when none is awaited. */
  pending: ChatMessage | null;
  /** Why the last question got no answer (the server's reason), until the next one. */
  lastError: string | null;
};

export type ChatEvent =
  | { type: 'asked'; text: string; now: number }
  | { type: 'token'; content: string }
  | { type: 'completed' }
  | { type: 'failed'; reason: string }
  | { type: 'cleared'; now: number };

function welcome(now: number): ChatMessage {
  return { id: WELCOME_ID, role: 'assistant', content: WELCOME_TEXT, timestamp: now };
}

export function initialChat(now: number): ChatState {
  return { messages: [welcome(now)], pending: null, lastError: null };
}

let counter = 0;
function nextId(prefix: string) {
  counter += 1;
  return `${prefix}-${counter}`;
}

export function chatReducer(state: ChatState, event: ChatEvent): ChatState {
  switch (event.type) {
    case 'asked':
      if (state.pending || !event.text.trim()) return state;
      return {
        messages: [...state.messages, { id: nextId('user'), role: 'user', content: event.text.trim(), timestamp: event.now }],
        pending: { id: nextId('assistant'), role: 'assistant', content: '', timestamp: event.now },
        lastError: null,
      };
    case 'token':
      return state.pending ? { ...state, pending: { ...state.pending, content: state.pending.content + event.content } } : state;
    case 'completed':
      if (!state.pending) return state;
      return { ...state, messages: state.pending.content ? [...state.messages, state.pending] : state.messages, pending: null };
    case 'failed':
      // The pending reply is removed (spec 001 §8); the question stays, to ask again.
      return state.pending ? { ...state, pending: null, lastError: event.reason } : state;
    case 'cleared':
      return initialChat(event.now);
  }
}

/** What is sent for a question: the conversation without the welcome, as the provider takes it. */
export function conversationOf(messages: ChatMessage[]): { role: ChatRole; content: string }[] {
  return messages.filter((m) => m.id !== WELCOME_ID).map(({ role, content }) => ({ role, content }));
}
