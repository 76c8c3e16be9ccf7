import { Skeleton } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useParams } from 'react-router';

import { CommentsPanel } from '@/features/comments/components/comments-panel';
import { AppViewer } from '@/features/insights/components/app-viewer';
import type { TemplateKind } from '@/features/templates/utils/constants';

// The charts load only for template apps.
const TemplateView = lazy(() => import('@/features/templates/components/template-view').then((m) => ({ default: m.TemplateView })));

/** /app/{id}: the insight in a frame (a template app drawn by the templates feature) with its discussion beside it. */
export function AppViewRoute() {
  const { id = '' } = useParams();
  return (
    <AppViewer
      key={id}
      id={id}
      aside={<CommentsPanel referenceId={id} />}
      template={(app) =>
        app.template && (
          <Suspense fallback={<Skeleton h={420} aria-label="Loading the app's data" />}>
            <TemplateView id={app.id} template={app.template as TemplateKind} />
          </Suspense>
        )
      }
    />
  );
}
