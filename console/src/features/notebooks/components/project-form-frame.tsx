import { Alert, Paper, Skeleton, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

import { PageHeader } from '@/components/ui/page-header';
import { QueryError } from '@/components/ui/query-error';
import { paths } from '@/config/paths';
import type { LegacyProjectView } from '@/lib/api/types';
import { useLegacyProject } from '@/features/notebooks/api/get-legacy-project';
import { canEdit } from '@/features/notebooks/utils/access';
import { NOTEBOOK_MESSAGES } from '@/features/notebooks/utils/messages';

const BACK = { label: 'Back to Notebooks', href: paths.notebooks.getHref() };

/**
 * The frame of a form that adds a notebook to a project (`?project={id}`): the breadcrumb back to
 * the project, the project loading or failing, and the form only with edit access.
 */
export function ProjectFormFrame({ projectId, title, children }: { projectId: string; title: string; children: (project: LegacyProjectView) => ReactNode }) {
  const detail = useLegacyProject(projectId, { enabled: !!projectId });
  const project = detail.data?.project;
  return (
    <Stack maw={720}>
      <PageHeader
        title={title}
        crumbs={[
          { label: 'Notebooks', href: paths.notebooks.getHref() },
          ...(projectId ? [{ label: project?.name ?? 'Project', href: paths.legacyProject.getHref(projectId) }] : []),
          { label: title },
        ]}
      />
      {!projectId && (
        <Alert color="gray" variant="light" title="Not found" role="alert">
          No project was given: open a project and add the notebook from there.
        </Alert>
      )}
      {projectId && detail.isPending && (
        <Stack gap="sm" role="status" aria-label="Loading project">
          <Skeleton h={36} />
          <Skeleton h={80} />
        </Stack>
      )}
      {detail.isError && <QueryError error={detail.error} onRetry={() => detail.refetch()} back={BACK} />}
      {project && !canEdit(project) && (
        <Alert color="yellow" variant="light" role="alert">
          {NOTEBOOK_MESSAGES.needEdit}
        </Alert>
      )}
      {project && canEdit(project) && (
        <Paper withBorder p="lg" radius="md">
          {children(project)}
        </Paper>
      )}
    </Stack>
  );
}
