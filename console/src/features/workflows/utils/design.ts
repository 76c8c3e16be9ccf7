import type { DesignerEdge, DesignerNode, EmailOn, SaveWorkflowBody, TaskType, VisualDesign } from '@/features/workflows/api/types';

/** The designer's e-mail settings as the screen holds them. */
export type EmailSettings = { enabled: boolean; list: string[]; onSuccess: boolean; onFailure: boolean };

export function emailSettingsOf(d: Pick<VisualDesign, 'email_bool' | 'email_list' | 'email_on'>): EmailSettings {
  return {
    enabled: d.email_bool,
    list: d.email_list,
    onSuccess: d.email_on === 'both' || d.email_on === 'success',
    onFailure: d.email_on === 'both' || d.email_on === 'failure',
  };
}

/** email_on for the two boxes (neither ticked: failure, the safe default). */
export function emailOnOf(s: Pick<EmailSettings, 'onSuccess' | 'onFailure'>): EmailOn {
  if (s.onSuccess && s.onFailure) return 'both';
  return s.onSuccess ? 'success' : 'failure';
}

/** The save call's body (POST /v2/workflows/save/{id}). */
export function saveBody(nodes: DesignerNode[], edges: DesignerEdge[], email: EmailSettings): SaveWorkflowBody {
  return {
    nodes,
    edges,
    email_bool: email.enabled,
    email_list: email.list,
    email_on_success: email.onSuccess,
    email_on_failure: email.onFailure,
  };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export function isEmail(s: string): boolean {
  return EMAIL.test(s.trim());
}

/** A fresh node id: unique among `taken`. */
export function nextNodeId(taken: readonly { id: string }[]): string {
  const used = new Set(taken.map((n) => n.id));
  let i = taken.length + 1;
  while (used.has(`task-${i}`)) i++;
  return `task-${i}`;
}

/** A new empty node (spec 001 §4 "a node starts empty"). */
export function emptyNode(id: string, position: { x: number; y: number }): DesignerNode {
  return { id, type: 'taskNode', position, data: { label: id, taskType: null, taskData: null } };
}

/** The node with another kind of task: its settings start over. */
export function withTaskType(node: DesignerNode, taskType: TaskType | null): DesignerNode {
  if (node.data.taskType === taskType) return node;
  return { ...node, data: { label: node.data.label, taskType, taskData: null } };
}
