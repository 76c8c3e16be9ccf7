import { Button, Center, Loader, Paper, Stack } from '@mantine/core';
import { IconNotebook } from '@tabler/icons-react';
import { Link } from 'react-router';

import { PageHeader } from '@/components/ui/page-header';
import { QueryError } from '@/components/ui/query-error';
import { NOTEBOOK_FRAME_DELAY_MS } from '@/config/constants';
import { paths } from '@/config/paths';
import { useNotebook } from '@/features/notebooks/api/get-notebook';
import { useNotebookPreview } from '@/features/notebooks/api/preview-notebook';
import { useDelayed } from '@/features/notebooks/components/use-delayed';

/**
 * /notebooks/{id}/preview (spec 001 §2): the committed notebook rendered read-only by the API
 * (POST /v1/notebook/{id}/preview answers `html`), in a frame that may run nothing: `sandbox=""`
 * (no scripts, no same origin, no forms), appearing `frameDelayMs` (5 s, spec 001 §9) after the
 * call succeeded, with a loader meanwhile.
 */
export function NotebookPreview({ id, frameDelayMs = NOTEBOOK_FRAME_DELAY_MS }: { id: string; frameDelayMs?: number }) {
  const detail = useNotebook(id);
  const preview = useNotebookPreview(id);
  const html = useDelayed(preview.data?.html ?? null, frameDelayMs);
  const data = detail.data;
  const name = data?.notebook.name ?? 'Notebook';
  return (
    <Stack gap="md">
      <PageHeader
        title={`Preview: ${name}`}
        crumbs={[
          { label: 'Notebooks', href: paths.notebooks.getHref() },
          ...(data ? [{ label: data.project.name, href: paths.legacyProject.getHref(data.project.id) }, { label: name, href: paths.notebook.getHref(id) }] : []),
          { label: 'Preview' },
        ]}
        actions={
          <Button variant="default" leftSection={<IconNotebook size={16} />} component={Link} to={paths.notebook.getHref(id)}>
            Open in JupyterLab
          </Button>
        }
      />
      {preview.isError ? (
        <QueryError error={preview.error} onRetry={() => preview.refetch()} back={{ label: 'Back to Notebooks', href: paths.notebooks.getHref() }} />
      ) : (
        <Paper withBorder data-testid="preview-frame-container" style={{ height: 'calc(100vh - 200px)', minHeight: 420, overflow: 'hidden' }}>
          {html !== null ? (
            <iframe title={`Preview of ${name}`} sandbox="" srcDoc={html} style={{ width: '100%', height: '100%', border: 0, display: 'block', background: 'white' }} />
          ) : (
            <Center h="100%" role="status" aria-label="Rendering the notebook">
              <Loader size="sm" />
            </Center>
          )}
        </Paper>
      )}
    </Stack>
  );
}
