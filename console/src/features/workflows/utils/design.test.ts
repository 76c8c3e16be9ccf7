import { describe, expect, it } from 'vitest';

import { emailOnOf, emailSettingsOf, emptyNode, isEmail, nextNodeId, saveBody, withTaskType } from '@/features/workflows/utils/design';

describe('designer helpers', () => {
  it('maps email_on to the two boxes and back', () => {
    for (const on of ['both', 'success', 'failure'] as const) {
      expect(emailOnOf(emailSettingsOf({ email_bool: true, email_list: [], email_on: on }))).toBe(on);
    }
    expect(emailOnOf({ onSuccess: false, onFailure: false })).toBe('failure');
  });

  it('writes the save body the contract names', () => {
    const n = emptyNode('task-1', { x: 1, y: 2 });
    expect(saveBody([n], [], { enabled: true, list: ['a@b.co'], onSuccess: false, onFailure: true })).toEqual({
      nodes: [n],
      edges: [],
      email_bool: true,
      email_list: ['a@b.co'],
      email_on_success: false,
      email_on_failure: true,
    });
  });

  it('gives fresh ids and empty nodes; another task type starts its settings over', () => {
    expect(nextNodeId([])).toBe('task-1');
    expect(nextNodeId([{ id: 'task-2' }, { id: 'x' }])).toBe('task-3');
    expect(nextNodeId([{ id: 'task-1' }])).toBe('task-2');
    const script = { ...emptyNode('a', { x: 0, y: 0 }), data: { label: 'a', taskType: 'script' as const, taskData: { fileName: 'a.py', image: 'python' } } };
    expect(withTaskType(script, 'script')).toBe(script);
    expect(withTaskType(script, 'upload').data).toEqual({ label: 'a', taskType: 'upload', taskData: null });
  });

  it('checks e-mail addresses', () => {
    expect(isEmail('ada@example.com')).toBe(true);
    expect(isEmail('ada@example')).toBe(false);
    expect(isEmail('a da@example.com')).toBe(false);
  });
});
