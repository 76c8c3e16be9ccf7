import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useParams } from 'react-router';

import { FeatureGate } from '@/app/routes/feature-gate';
import { AiChat } from '@/features/assistant/components/ai-chat';
import { LogSummaryButton } from '@/features/assistant/components/log-summary';
import { DiscussionButton } from '@/features/comments/components/discussion-button';
import { DatasetSnippetsPanel } from '@/features/datasets/components/dataset-snippets-panel';
import { insightKeys } from '@/features/insights/api/keys';
import { ProjectWorkspace } from '@/features/projects/components/project-workspace';
import { ProjectsList } from '@/features/projects/components/projects-list';
import type { GitTokenPrompt, ImageField, LinkedWorkflowsPanel, WorkflowPublish } from '@/features/projects/components/slots';
import { ImageSelector } from '@/features/insights/components/image-selector';
import { ShareModal } from '@/features/sharing/components/share-modal';
import { GitTokenModal } from '@/features/users/components/git-token-modal';
import { ProjectWorkflows } from '@/features/workflows/components/project-workflows';
import { WorkflowPublishModal } from '@/features/workflows/components/workflow-publish-modal';
import type { ProjectView } from '@/lib/api/types';

function ProjectsGate({ children }: { children: ReactNode }) {
  return (
    <FeatureGate feature="projects" title="Projects">
      {children}
    </FeatureGate>
  );
}

/** The Share dialog of the sharing feature for a project v2. */
export function useProjectShare() {
  const [sharing, setSharing] = useState<Pick<ProjectView, 'id' | 'name'> | null>(null);
  const dialog = sharing && (
    <ShareModal opened entityId={sharing.id} entityType="Project_V2" entityLabel={sharing.name} onClose={() => setSharing(null)} />
  );
  return { open: setSharing, dialog };
}

const gitTokenPrompt: GitTokenPrompt = (props) => <GitTokenModal {...props} />;
const imageField: ImageField = (props) => <ImageSelector {...props} />;
// Creating linked workflows is hidden for view access (spec 001 §6).
const linkedWorkflows: LinkedWorkflowsPanel = ({ projectId, level }) => (
  <ProjectWorkflows projectId={projectId} canCreate={level === 'execute' || level === 'edit'} />
);
const workflowPublish: WorkflowPublish = (props) => <WorkflowPublishModal {...props} />;

/** /projectsv2 */
export function ProjectsRoute() {
  const share = useProjectShare();
  return (
    <ProjectsGate>
      <ProjectsList onShare={share.open} gitTokenPrompt={gitTokenPrompt} imageField={imageField} />
      {share.dialog}
    </ProjectsGate>
  );
}

/**
 * /projectsv2/{id}: the workspace, with the datasets panel (datasets feature), the discussion
 * (comments feature), Share (sharing feature) and the linked workflows and the publish chooser's
 * Workflow branch (workflows feature); publishing an insight refreshes the insights.
 */
export function ProjectRoute() {
  const { id = '' } = useParams();
  const share = useProjectShare();
  const queryClient = useQueryClient();
  return (
    <ProjectsGate>
      <ProjectWorkspace
        key={id}
        id={id}
        onShare={share.open}
        datasetsPanel={<DatasetSnippetsPanel />}
        discussion={<DiscussionButton referenceId={id} size="xs" />}
        aiChat={({ projectId, file }) => <AiChat entityId={projectId} file={file} />}
        logTools={({ id: projectId, lines }) => <LogSummaryButton id={projectId} entity="project" lines={lines} />}
        onPublished={() => void queryClient.invalidateQueries({ queryKey: insightKeys.all })}
        linkedWorkflows={linkedWorkflows}
        workflowPublish={workflowPublish}
      />
      {share.dialog}
    </ProjectsGate>
  );
}
