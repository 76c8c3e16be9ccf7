import '@xyflow/react/dist/style.css';

import { Alert, Anchor, Box, Button, Card, Divider, Group, Loader, Modal, Stack, Text, Title } from '@mantine/core';
import { IconDeviceFloppy, IconExternalLink, IconPlus, IconSend } from '@tabler/icons-react';
import {
  addEdge,
  Background,
  type Connection,
  Controls,
  type Edge,
  type FinalConnectionState,
  MiniMap,
  ReactFlow,
  ReactFlowProvider,
  useEdgesState,
  useNodesState,
  useReactFlow,
} from '@xyflow/react';
import { type MouseEvent as ReactMouseEvent, useState } from 'react';
import { Link } from 'react-router';

import { GatedButton } from '@/components/ui/gated-button';
import { PageHeader } from '@/components/ui/page-header';
import { QueryError } from '@/components/ui/query-error';
import { UnsavedChangesGuard } from '@/components/ui/unsaved-changes';
import { GRAPH_ZOOM } from '@/config/constants';
import { paths } from '@/config/paths';
import { useWorkflow } from '@/features/workflows/api/get-workflow';
import { useVisualDesign } from '@/features/workflows/api/get-visual';
import { usePublishWorkflow } from '@/features/workflows/api/publish-workflow';
import { useSaveWorkflow } from '@/features/workflows/api/save-workflow';
import type { DesignerEdge, VisualAnswer, WorkflowView } from '@/lib/api/types';
import { EmailSettings } from '@/features/workflows/components/email-settings';
import { NodePanel } from '@/features/workflows/components/node-panel';
import { PublishConfirmation } from '@/features/workflows/components/publish-confirmation';
import { ScheduleEditor } from '@/features/workflows/components/schedule-editor';
import type { DesignerPickers, OnShare } from '@/features/workflows/components/slots';
import { TaskNode, type TaskFlowNode } from '@/features/workflows/components/task-node';
import { canEditWorkflow, publishBlocked } from '@/features/workflows/utils/access';
import { type CanvasNode, canvasNode, emailSettingsOf, emptyNode, type EmailSettings as Email, nextNodeId, saveBody } from '@/features/workflows/utils/design';
import { CONNECTION_MESSAGES, edgesWithout, hasCycle, refuseConnection } from '@/features/workflows/utils/graph';
import { WORKFLOW_MESSAGES } from '@/features/workflows/utils/messages';
import { designProblems } from '@/features/workflows/utils/tasks';
import { notify } from '@/lib/notify';

const NODE_TYPES = { taskNode: TaskNode };
const FIT_VIEW = { maxZoom: 1, padding: 0.2 };

const edgeId = (source: string, target: string) => `e-${source}-${target}`;

/** Where 'Add task' puts a node: to the right of the rightmost one, so nodes never overlap. */
function nextPosition(nodes: readonly TaskFlowNode[]) {
  if (nodes.length === 0) return { x: 60, y: 100 };
  const right = nodes.reduce((a, n) => (n.position.x > a.position.x ? n : a));
  return { x: right.position.x + 240, y: right.position.y };
}

/** A node of the design on the canvas. */
function canvasFlowNode(n: VisualAnswer['nodes'][number]): TaskFlowNode {
  const { id, position, data } = canvasNode(n);
  return { id, type: 'taskNode', position, data };
}

/** What the API stores of a node: nothing of the canvas's own (selection, measurements). */
function toCanvasNode(n: TaskFlowNode): CanvasNode {
  return { id: n.id, type: 'taskNode', position: { x: n.position.x, y: n.position.y }, data: n.data };
}
function toDesignerEdge(e: Edge): DesignerEdge {
  return { id: e.id, source: e.source, target: e.target };
}

type CanvasProps = { workflow: WorkflowView; design: VisualAnswer; pickers: DesignerPickers; onShare?: OnShare };

function Canvas({ workflow, design, pickers, onShare }: CanvasProps) {
  const flow = useReactFlow<TaskFlowNode, Edge>();
  const [nodes, setNodes, onNodesChange] = useNodesState<TaskFlowNode>(design.nodes.map(canvasFlowNode));
  const [edges, setEdges, onEdgesChange] = useEdgesState<Edge>(design.edges);
  const [email, setEmail] = useState<Email>(() => emailSettingsOf(design));
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [dirty, setDirty] = useState(false);
  const [scheduling, setScheduling] = useState(false);
  const [published, setPublished] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  const editable = canEditWorkflow(workflow);
  const publishGate = publishBlocked(workflow);
  const save = useSaveWorkflow();
  const publish = usePublishWorkflow();
  const selected = nodes.find((n) => n.id === selectedId) ?? null;

  const changed = () => setDirty(true);

  function onConnect(c: Connection) {
    const why = refuseConnection(edges, c.source, c.target);
    if (why) return notify.error(why);
    setEdges((eds) => addEdge({ ...c, id: edgeId(c.source, c.target) }, eds));
    changed();
  }

  /** A connection dropped on blank canvas makes a new node there, connected (spec 001 §4). */
  function onConnectEnd(event: MouseEvent | TouchEvent, state: FinalConnectionState) {
    if (!editable || state.isValid || !state.fromNode || state.toHandle) return;
    const point = 'changedTouches' in event ? event.changedTouches[0] : event;
    const id = nextNodeId(nodes);
    const position = flow.screenToFlowPosition({ x: point.clientX, y: point.clientY });
    const from = state.fromNode.id;
    const [source, target] = state.fromHandle?.type === 'target' ? [id, from] : [from, id];
    setNodes((ns) => [...ns, emptyNode(id, position) as TaskFlowNode]);
    setEdges((eds) => [...eds, { id: edgeId(source, target), source, target }]);
    setSelectedId(id);
    changed();
  }

  function addNode() {
    const id = nextNodeId(nodes);
    setNodes((ns) => [...ns, emptyNode(id, nextPosition(ns)) as TaskFlowNode]);
    setSelectedId(id);
    changed();
    // Keep every task in view (xyflow runs it once the new node is measured).
    void flow.fitView(FIT_VIEW);
  }

  function deleteNodes(ids: string[]) {
    const removed = new Set(ids);
    setNodes((ns) => ns.filter((n) => !removed.has(n.id)));
    setEdges((eds) => edgesWithout(eds, removed));
    if (selectedId && removed.has(selectedId)) setSelectedId(null);
    changed();
  }

  function updateNode(node: CanvasNode) {
    setNodes((ns) => ns.map((n) => (n.id === node.id ? { ...n, data: node.data } : n)));
    changed();
  }

  /** Saves the design; false when it was refused (the toast says why). */
  async function saveDesign(): Promise<boolean> {
    const ns = nodes.map(toCanvasNode);
    const es = edges.map(toDesignerEdge);
    if (hasCycle(ns.map((n) => n.id), es)) {
      notify.error(CONNECTION_MESSAGES.cycle);
      return false;
    }
    if (email.enabled && email.list.length === 0) {
      notify.error(WORKFLOW_MESSAGES.emailRequired);
      return false;
    }
    try {
      await save.mutateAsync({ id: workflow.id, ...saveBody(ns, es, email) });
      setDirty(false);
      return true;
    } catch {
      return false;
    }
  }

  async function onSave() {
    if (await saveDesign()) notify.success(WORKFLOW_MESSAGES.saved);
  }

  /** Save (when the caller may), then publish, then the confirmation (spec 001 §4). */
  async function onPublish() {
    const found = designProblems(nodes.map(toCanvasNode));
    setProblems(found);
    if (nodes.length === 0) return notify.error('Add a task before publishing');
    if (found.length) return;
    if (editable && !(await saveDesign())) return;
    try {
      const r = await publish.mutateAsync({ id: workflow.id, projectId: workflow.project_id, visual: true });
      notify.success(r.message || WORKFLOW_MESSAGES.published);
      setPublished(true);
    } catch {
      /* the client's toast says why */
    }
  }

  return (
    <Stack h="100%">
      <UnsavedChangesGuard dirty={dirty && editable} />
      <PageHeader
        title={workflow.name}
        crumbs={[{ label: 'Workflows', href: paths.workflows.getHref() }, { label: workflow.name }]}
        actions={
          <>
            {editable && (
              <Button variant="default" leftSection={<IconPlus size={16} />} onClick={addNode}>
                Add task
              </Button>
            )}
            <Button variant="default" onClick={() => setScheduling(true)}>
              Schedule
            </Button>
            {editable && (
              <Button variant="default" leftSection={<IconDeviceFloppy size={16} />} loading={save.isPending && !publish.isPending} onClick={() => void onSave()}>
                Save
              </Button>
            )}
            <GatedButton leftSection={<IconSend size={16} />} blocked={publishGate} loading={publish.isPending} onClick={() => void onPublish()}>
              Publish
            </GatedButton>
          </>
        }
      />
      {problems.length > 0 && (
        <Alert color="orange" variant="light" title="Some tasks are not ready" role="alert" withCloseButton onClose={() => setProblems([])}>
          {problems.map((p) => (
            <Text key={p} size="sm">
              {p}
            </Text>
          ))}
        </Alert>
      )}
      {!editable && (
        <Text size="sm" c="dimmed">
          Read only: {WORKFLOW_MESSAGES.editNeeded.toLowerCase()} to change this design.
        </Text>
      )}
      <Group align="stretch" gap="md" wrap="nowrap" style={{ flex: 1, minHeight: 520 }}>
        <Box style={{ flex: 1, border: '1px solid var(--mantine-color-default-border)', borderRadius: 8 }} data-testid="designer-canvas">
          <ReactFlow<TaskFlowNode, Edge>
            nodes={nodes}
            edges={edges}
            nodeTypes={NODE_TYPES}
            onNodesChange={(c) => {
              onNodesChange(c);
              if (c.some((x) => x.type === 'position' && !x.dragging)) changed();
            }}
            onEdgesChange={(c) => {
              onEdgesChange(c);
              if (c.some((x) => x.type === 'remove')) changed();
            }}
            onConnect={onConnect}
            onConnectEnd={onConnectEnd}
            isValidConnection={(c) => refuseConnection(edges, c.source, c.target) === null}
            onNodesDelete={(ns) => deleteNodes(ns.map((n) => n.id))}
            onNodeClick={(_e: ReactMouseEvent, n) => setSelectedId(n.id)}
            onPaneClick={() => setSelectedId(null)}
            nodesDraggable={editable}
            nodesConnectable={editable}
            edgesReconnectable={false}
            deleteKeyCode={editable ? ['Backspace', 'Delete'] : null}
            minZoom={GRAPH_ZOOM.min}
            maxZoom={GRAPH_ZOOM.max}
            fitView
            fitViewOptions={FIT_VIEW}
          >
            <Background />
            <Controls showInteractive={false} />
            <MiniMap pannable zoomable />
          </ReactFlow>
        </Box>
        <Card withBorder w={340} style={{ overflow: 'auto' }}>
          <Stack gap="sm">
            <Group gap="md">
              {[
                { label: 'Project', href: paths.project.getHref(workflow.project_id) },
                { label: 'Details', href: paths.workflow.getHref(workflow.id) },
              ].map((l) => (
                <Anchor key={l.label} component={Link} to={l.href} size="sm">
                  <Group gap={4} component="span">
                    <IconExternalLink size={14} />
                    {l.label}
                  </Group>
                </Anchor>
              ))}
            </Group>
            <Divider />
            {selected ? (
              <NodePanel
                key={selected.id}
                node={toCanvasNode(selected)}
                projectId={workflow.project_id}
                pickers={pickers}
                readOnly={!editable}
                onChange={updateNode}
                onDelete={() => deleteNodes([selected.id])}
              />
            ) : (
              <>
                <Title order={5}>Workflow</Title>
                <Text size="sm" c="dimmed">
                  {editable
                    ? 'Select a task to configure it. Drag from a task’s right handle onto blank canvas to add the next task.'
                    : 'Select a task to see its settings.'}
                </Text>
                <EmailSettings
                  value={email}
                  readOnly={!editable}
                  onChange={(s) => {
                    setEmail(s);
                    changed();
                  }}
                />
              </>
            )}
          </Stack>
        </Card>
      </Group>
      {scheduling && (
        <Modal opened onClose={() => setScheduling(false)} title="Schedule" centered>
          <ScheduleEditor workflow={workflow} onSaved={() => setScheduling(false)} />
        </Modal>
      )}
      {published && <PublishConfirmation id={workflow.id} onShare={onShare} onClose={() => setPublished(false)} />}
    </Stack>
  );
}

/**
 * /visual-workflows/{id} (spec 001 §2, §4): the DAG canvas (xyflow) with the side panel. Nodes
 * start empty and become script or upload tasks; a connection dropped on blank canvas makes a new
 * node; cycles and self-connections are refused; zoom 0.3–3; save, schedule, e-mail settings and
 * publish. Below edit the canvas is read-only.
 */
export function WorkflowDesigner({ id, pickers, onShare }: { id: string; pickers: DesignerPickers; onShare?: OnShare }) {
  const workflow = useWorkflow(id);
  const design = useVisualDesign(id);
  const error = workflow.error ?? design.error;
  if (error) return <QueryError error={error} onRetry={() => void Promise.all([workflow.refetch(), design.refetch()])} back={{ label: 'Back to Workflows', href: paths.workflows.getHref() }} />;
  if (!workflow.data || !design.data) {
    return (
      <Group justify="center" py="xl">
        <Loader aria-label="Loading the designer" />
      </Group>
    );
  }
  if (!workflow.data.visual) {
    return (
      <Alert color="gray" variant="light" title="Written as code" role="alert">
        {workflow.data.name} is a DAG file ({workflow.data.dag_file ?? 'its {id}_dag.py'}) in its project, not a design.{' '}
        <Anchor component={Link} to={paths.workflow.getHref(id)}>
          Open its details
        </Anchor>
      </Alert>
    );
  }
  return (
    <ReactFlowProvider>
      <Canvas workflow={workflow.data} design={design.data} pickers={pickers} onShare={onShare} />
    </ReactFlowProvider>
  );
}
