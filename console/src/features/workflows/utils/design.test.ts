import { describe, expect, it } from 'vitest';

import { canvasNode, emailOnOf, emailSettingsOf, emptyNode, isEmail, nextNodeId, saveBody, withTaskType } from '@/features/workflows/utils/design';

describe('designer helpers', () => {
  it('fills in a node the way the API does when fields are left out', () => {
    expect(canvasNode({ id: 'task-1' })).toEqual({ id: 'task-1', type: 'taskNode', position: { x: 0, y: 0 }, data: { label: '', taskType: null, taskData: {} } });
    const full = { id: 'n', type: 'taskNode', position: { x: 3, y: 4 }, data: { label: 'a', taskType: 'script' as const, taskData: { fileName: 'a.py' } } };
    expect(canvasNode(full)).toEqual(full);
  });

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
    // Settings are `{}` when there are none: the API refuses `taskData: null`.
    expect(emptyNode('a', { x: 0, y: 0 }).data).toEqual({ label: 'a', taskType: null, taskData: {} });
    const script = { ...emptyNode('a', { x: 0, y: 0 }), data: { label: 'a', taskType: 'script' as const, taskData: { fileName: 'a.py', image: 'python' } } };
    expect(withTaskType(script, 'script')).toBe(script);
    expect(withTaskType(script, 'upload').data).toEqual({ label: 'a', taskType: 'upload', taskData: {} });
  });

  it('checks e-mail addresses', () => {
    expect(isEmail('ada@example.com')).toBe(true);
    expect(isEmail('ada@example')).toBe(false);
    expect(isEmail('a da@example.com')).toBe(false);
  });
});
