import { EmptyState } from '@/components/ui/empty-state';
import { PROJECT_MESSAGES } from '@/features/projects/utils/messages';

/** The project's linked workflows (spec 001 §2 "Left panel"): empty until the workflows feature exists. */
export function LinkedWorkflows() {
  return <EmptyState title="No linked workflows" hint={`${PROJECT_MESSAGES.workflowsLater}: the workflows that run this project's files will be listed here.`} />;
}
