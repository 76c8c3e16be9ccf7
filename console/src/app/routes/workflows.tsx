import { type ReactNode, useState } from 'react';
import { useParams } from 'react-router';

import { FeatureGate } from '@/app/routes/feature-gate';
import { ProjectPickerField } from '@/app/routes/workflow-pickers';
import { type LogTools, LogToolsContext } from '@/components/log-viewer/log-tools';
import { LogSummaryButton } from '@/features/assistant/components/log-summary';
import { DiscussionButton } from '@/features/comments/components/discussion-button';
import { ShareModal } from '@/features/sharing/components/share-modal';
import { WorkflowDetail } from '@/features/workflows/components/workflow-detail';
import { WorkflowsList } from '@/features/workflows/components/workflows-list';
import type { ProjectPicker } from '@/features/workflows/components/slots';

/** A task's log summary, of the workflow (the assistant feature). */
const workflowLogTools: LogTools = ({ id, lines }) => <LogSummaryButton id={id} entity="workflow" lines={lines} />;

export function WorkflowsGate({ children }: { children: ReactNode }) {
  return (
    <FeatureGate feature="workflows" title="Workflows">
      {children}
    </FeatureGate>
  );
}

/** The Share dialog of the sharing feature for a workflow. */
export function useWorkflowShare() {
  const [sharing, setSharing] = useState<{ id: string; name: string } | null>(null);
  const dialog = sharing && <ShareModal opened entityId={sharing.id} entityType="Workflow" entityLabel={sharing.name} onClose={() => setSharing(null)} />;
  return { open: setSharing, dialog };
}

const projectPicker: ProjectPicker = (props) => <ProjectPickerField {...props} />;

/** /workflows */
export function WorkflowsRoute() {
  const share = useWorkflowShare();
  return (
    <WorkflowsGate>
      <WorkflowsList onShare={share.open} projectPicker={projectPicker} />
      {share.dialog}
    </WorkflowsGate>
  );
}

/** /workflows/{id}, with its discussion (comments feature) and Share (sharing feature). */
export function WorkflowRoute() {
  const { id = '' } = useParams();
  const share = useWorkflowShare();
  return (
    <WorkflowsGate>
      <LogToolsContext value={workflowLogTools}>
        <WorkflowDetail key={id} id={id} onShare={share.open} discussion={<DiscussionButton referenceId={id} />} />
      </LogToolsContext>
      {share.dialog}
    </WorkflowsGate>
  );
}
