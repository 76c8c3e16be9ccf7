import { Modal, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';

import { ModalActions } from '@/components/ui/modal-actions';
import { useCreateWorkflow } from '@/features/workflows/api/create-workflow';
import type { WorkflowView } from '@/lib/api/types';
import type { ProjectPicker } from '@/features/workflows/components/slots';
import { WORKFLOW_MESSAGES } from '@/features/workflows/utils/messages';
import { notify } from '@/lib/notify';

type Kind = 'visual' | 'manual';

/** The workflow's name (1–128 characters; empty: 'Please add a workflow name'). */
export function WorkflowNameField({ value, error, onChange }: { value: string; error?: string; onChange: (v: string) => void }) {
  return <TextInput label="Workflow name" required data-autofocus maxLength={128} value={value} error={error} onChange={(e) => onChange(e.currentTarget.value)} />;
}
type Errors = { project?: string; name?: string };

/**
 * 'create new' (spec 001 §2, §5): a project first ('Please select a project for the workflow to
 * live in'), a name ('Please add a workflow name'), visual (the designer) or manual (a DAG file
 * '{id}_dag.py' in the project). From a project's page the project is fixed.
 */
export function CreateWorkflowModal({
  projectId,
  projectPicker,
  onClose,
  onCreated,
}: {
  /** The project it lives in, when it is already known (the project's page). */
  projectId?: string;
  projectPicker?: ProjectPicker;
  onClose: () => void;
  onCreated: (w: WorkflowView) => void;
}) {
  const [project, setProject] = useState<string | null>(projectId ?? null);
  const [name, setName] = useState('');
  const [kind, setKind] = useState<Kind>('visual');
  const [errors, setErrors] = useState<Errors>({});
  const create = useCreateWorkflow({
    onSuccess: (r) => {
      notify.success(r.message || WORKFLOW_MESSAGES.created);
      onCreated(r.workflow);
    },
  });

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const next: Errors = {
      project: project ? undefined : WORKFLOW_MESSAGES.selectProject,
      name: name.trim() ? undefined : WORKFLOW_MESSAGES.emptyName,
    };
    setErrors(next);
    if (next.project || next.name || !project) return;
    create.mutate({ project_id: project, name: name.trim(), visual_workflow: kind === 'visual' });
  }

  return (
    <Modal opened onClose={onClose} title="Create a workflow" centered>
      <form noValidate onSubmit={submit}>
        <Stack>
          {!projectId &&
            projectPicker?.({
              label: 'Project',
              value: project,
              error: errors.project,
              onChange: (v) => {
                setProject(v);
                setErrors((er) => ({ ...er, project: undefined }));
              },
            })}
          <WorkflowNameField
            value={name}
            error={errors.name}
            onChange={(v) => {
              setName(v);
              setErrors((er) => ({ ...er, name: undefined }));
            }}
          />
          <SegmentedControl
            aria-label="Kind of workflow"
            value={kind}
            onChange={(v) => setKind(v as Kind)}
            data={[
              { value: 'visual', label: 'Visual (designer)' },
              { value: 'manual', label: 'Manual (DAG file)' },
            ]}
          />
          <Text size="xs" c="dimmed">
            {kind === 'visual'
              ? 'Draw the tasks and their order in the designer.'
              : "Write the DAG in the project's file {id}_dag.py (Airflow-style Python); a starter file is committed for you."}
          </Text>
          <ModalActions error={create.error?.message} submitLabel="Create" loading={create.isPending} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
