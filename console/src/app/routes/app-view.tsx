import { Skeleton } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useParams } from 'react-router';

import { LogSummaryButton } from '@/features/assistant/components/log-summary';
import { CommentsPanel } from '@/features/comments/components/comments-panel';
import { AppViewer } from '@/features/insights/components/app-viewer';
import type { TemplateKind } from '@/features/templates/utils/constants';

// The charts load only for template apps.
const TemplateView = lazy(() => import('@/features/templates/components/template-view').then((m) => ({ default: m.TemplateView })));

/** /app/{id}: the insight in a frame (a template app drawn by the templates feature) with its discussion beside it and the log summary in its console. */
export function AppViewRoute() {
  const { id = '' } = useParams();
  return (
    <AppViewer
      key={id}
      id={id}
      aside={<CommentsPanel referenceId={id} />}
      logTools={({ id: appId, lines }) => <LogSummaryButton id={appId} entity="application" lines={lines} />}
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
