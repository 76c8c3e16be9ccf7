import { Anchor, Modal, MultiSelect, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';

import { ModalActions } from '@/components/ui/modal-actions';
import { WORKFLOW_ID_LABEL_LENGTH } from '@/config/constants';
import { useWorkflows } from '@/features/workflows/api/get-workflows';
import { dagFileName, usePublishWorkflow } from '@/features/workflows/api/publish-workflow';
import type { WorkflowView } from '@/lib/api/types';
import { CreateWorkflowModal } from '@/features/workflows/components/create-workflow-modal';
import { WORKFLOW_MESSAGES } from '@/features/workflows/utils/messages';
import { notify } from '@/lib/notify';

/** A workflow as the picker shows it: the first 7 characters of its id, and its name (spec 001 §9). */
export function workflowOptionLabel(w: Pick<WorkflowView, 'id' | 'name' | 'visual'>): string {
  return `${w.id.slice(0, WORKFLOW_ID_LABEL_LENGTH)} · ${w.name} (${w.visual ? 'designer' : 'manual'})`;
}

/**
 * The publish chooser's Workflow branch (spec 001 §4): a workflow of this project, optionally
 * other files, publish, then /workflows. A visual workflow sends only project_id; a manual one
 * its DAG file '{id}_dag.py' and the selected files.
 */
export function WorkflowPublishModal({
  projectId,
  files,
  onClose,
  onPublished,
}: {
  projectId: string;
  /** The project's files offered besides the DAG file. */
  files: string[];
  onClose: () => void;
  onPublished: () => void;
}) {
  const workflows = useWorkflows({ filter: 'all', page: 1, search: '', projectId });
  const [workflowId, setWorkflowId] = useState<string | null>(null);
  const [extra, setExtra] = useState<string[]>([]);
  const [error, setError] = useState<string>();
  const [creating, setCreating] = useState(false);
  const publish = usePublishWorkflow({
    onSuccess: (r) => {
      notify.success(r.message || WORKFLOW_MESSAGES.published);
      onPublished();
    },
  });
  const items = workflows.data?.workflows ?? [];
  const chosen = items.find((w) => w.id === workflowId) ?? null;

  function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!chosen) return setError(WORKFLOW_MESSAGES.selectWorkflow);
    publish.mutate(chosen.visual ? { id: chosen.id, projectId, visual: true } : { id: chosen.id, projectId, visual: false, files: extra });
  }

  return (
    <>
      <Modal opened={!creating} onClose={onClose} title="Publish as a workflow" centered>
        <form noValidate onSubmit={submit}>
          <Stack>
            <Select
              label="Workflow"
              placeholder={workflows.isPending ? 'Loading workflows…' : items.length ? 'Choose a workflow' : 'No workflow in this project yet'}
              data={items.map((w) => ({ value: w.id, label: workflowOptionLabel(w) }))}
              value={workflowId}
              onChange={(v) => {
                setWorkflowId(v);
                setError(undefined);
              }}
              error={error}
              required
            />
            <Text size="xs">
              <Anchor component="button" type="button" size="xs" onClick={() => setCreating(true)}>
                Create a workflow
              </Anchor>
            </Text>
            {chosen && !chosen.visual && (
              <>
                <Text size="xs" c="dimmed">
                  The DAG file {dagFileName(chosen.id)} is published with the files you add.
                </Text>
                <MultiSelect
                  label="Other files"
                  placeholder="Optional"
                  data={files.filter((f) => f !== dagFileName(chosen.id))}
                  value={extra}
                  onChange={setExtra}
                  searchable
                  clearable
                />
              </>
            )}
            <ModalActions error={publish.error?.message} submitLabel="Publish" loading={publish.isPending} onCancel={onClose} />
          </Stack>
        </form>
      </Modal>
      {creating && (
        <CreateWorkflowModal
          projectId={projectId}
          onClose={() => setCreating(false)}
          onCreated={(w) => {
            setCreating(false);
            setWorkflowId(w.id);
            setError(undefined);
          }}
        />
      )}
    </>
  );
}
