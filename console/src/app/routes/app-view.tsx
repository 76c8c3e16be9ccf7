import { useParams } from 'react-router';

import { CommentsPanel } from '@/features/comments/components/comments-panel';
import { AppViewer } from '@/features/insights/components/app-viewer';

/** /app/{id}: the insight in a frame with its discussion beside it. */
export function AppViewRoute() {
  const { id = '' } = useParams();
  return <AppViewer key={id} id={id} aside={<CommentsPanel referenceId={id} />} />;
}
