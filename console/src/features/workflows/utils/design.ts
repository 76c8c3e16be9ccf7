import type { DesignerEdge, DesignerNode, EmailOn, NodeData, SaveWorkflowRequest, TaskType, VisualAnswer } from '@/lib/api/types';

/** A node's data as the API sends it: the label and settings always there (`{}` for an empty node). */
export type TaskNodeData = Required<NodeData>;
/** A node as the API sends it and the canvas holds it: `type`, `position` and `data` always there. */
export type CanvasNode = Required<Omit<DesignerNode, 'data'>> & { data: TaskNodeData };

/** A node of an answer with the API's defaults filled in (a request may leave them out). */
export function canvasNode(n: DesignerNode): CanvasNode {
  return {
    id: n.id,
    type: n.type ?? 'taskNode',
    position: n.position ?? { x: 0, y: 0 },
    data: { label: n.data?.label ?? '', taskType: n.data?.taskType ?? null, taskData: n.data?.taskData ?? {} },
  };
}

/** The designer's e-mail settings as the screen holds them. */
export type EmailSettings = { enabled: boolean; list: string[]; onSuccess: boolean; onFailure: boolean };

export function emailSettingsOf(d: Pick<VisualAnswer, 'email_bool' | 'email_list' | 'email_on'>): EmailSettings {
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
export function saveBody(nodes: DesignerNode[], edges: DesignerEdge[], email: EmailSettings): SaveWorkflowRequest {
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
export function emptyNode(id: string, position: { x: number; y: number }): CanvasNode {
  return { id, type: 'taskNode', position, data: { label: id, taskType: null, taskData: {} } };
}

/** The node with another kind of task: its settings start over. */
export function withTaskType(node: CanvasNode, taskType: TaskType | null): CanvasNode {
  if (node.data.taskType === taskType) return node;
  return { ...node, data: { label: node.data.label, taskType, taskData: {} } };
}
