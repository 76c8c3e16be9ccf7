import { useParams } from 'react-router';

import { designerPickers } from '@/app/routes/workflow-pickers';
import { useWorkflowShare, WorkflowsGate } from '@/app/routes/workflows';
import { WorkflowDesigner } from '@/features/workflows/components/workflow-designer';

/** /visual-workflows/{id}: its own chunk, since xyflow is loaded only here. */
export function VisualWorkflowRoute() {
  const { id = '' } = useParams();
  const share = useWorkflowShare();
  return (
    <WorkflowsGate>
      <WorkflowDesigner key={id} id={id} pickers={designerPickers} onShare={share.open} />
      {share.dialog}
    </WorkflowsGate>
  );
}
