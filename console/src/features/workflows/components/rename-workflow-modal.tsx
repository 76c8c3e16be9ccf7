import { Modal, Stack } from '@mantine/core';
import { useState } from 'react';

import { ModalActions } from '@/components/ui/modal-actions';
import { useUpdateWorkflow } from '@/features/workflows/api/update-workflow';
import type { WorkflowView } from '@/lib/api/types';
import { WorkflowNameField } from '@/features/workflows/components/create-workflow-modal';
import { WORKFLOW_MESSAGES } from '@/features/workflows/utils/messages';
import { notify } from '@/lib/notify';

/** The menu's Edit: the workflow's name (PUT /v2/workflows/{id}, edit access). */
export function RenameWorkflowModal({ workflow, onClose }: { workflow: Pick<WorkflowView, 'id' | 'name'>; onClose: () => void }) {
  const [name, setName] = useState(workflow.name);
  const [error, setError] = useState<string>();
  const update = useUpdateWorkflow({
    onSuccess: (r) => {
      notify.success(r.message || WORKFLOW_MESSAGES.updated);
      onClose();
    },
  });

  function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!name.trim()) return setError(WORKFLOW_MESSAGES.emptyName);
    update.mutate({ id: workflow.id, name: name.trim() });
  }

  return (
    <Modal opened onClose={onClose} title="Edit workflow" centered>
      <form noValidate onSubmit={submit}>
        <Stack>
          <WorkflowNameField
            value={name}
            error={error}
            onChange={(v) => {
              setName(v);
              setError(undefined);
            }}
          />
          <ModalActions error={update.error?.message} errorTitle={WORKFLOW_MESSAGES.updateFailed} submitLabel="Save" loading={update.isPending} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
