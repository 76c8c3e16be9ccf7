import { MultiSelect } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';

import { FeatureGate } from '@/app/routes/feature-gate';
import { SEARCH_DEBOUNCE_MS } from '@/config/constants';
import { paths } from '@/config/paths';
import { DiscussionButton } from '@/features/comments/components/discussion-button';
import { getDatasetQueryOptions } from '@/features/datasets/api/get-dataset';
import { useDatasets } from '@/features/datasets/api/get-datasets';
import { insightKeys } from '@/features/insights/api/keys';
import type { LegacyProjectView } from '@/lib/api/types';
import { LegacyProjectDetail } from '@/features/notebooks/components/legacy-project-detail';
import { LegacyProjectEditForm } from '@/features/notebooks/components/legacy-project-edit-form';
import { LegacyProjectForm } from '@/features/notebooks/components/legacy-project-form';
import { LegacyProjectsList } from '@/features/notebooks/components/legacy-projects-list';
import { NotebookCreateForm } from '@/features/notebooks/components/notebook-create-form';
import { NotebookEditForm } from '@/features/notebooks/components/notebook-edit-form';
import { NotebookImportForm } from '@/features/notebooks/components/notebook-import-form';
import { NotebookPreview } from '@/features/notebooks/components/notebook-preview';
import { NotebookWorkspace } from '@/features/notebooks/components/notebook-workspace';
import type { DatasetsPickerProps, GitTokenPrompt, PublishDialogProps } from '@/features/notebooks/components/slots';
import { InsightPublishModal } from '@/features/projects/components/publish-modals';
import { ShareModal } from '@/features/sharing/components/share-modal';
import { GitTokenModal } from '@/features/users/components/git-token-modal';

/**
 * The legacy (notebook) project and notebook screens (issue 18), with what they borrow: the git
 * dialog (users feature), the datasets picker (datasets feature), Share (sharing feature), the
 * discussion (comments feature) and the insight publish dialog (projects feature).
 */

function NotebooksGate({ children }: { children: ReactNode }) {
  return (
    <FeatureGate feature="notebooks" title="Notebooks">
      {children}
    </FeatureGate>
  );
}

/** Datasets the caller can see, searched as typed; chosen ones keep their names while another search shows. */
function DatasetsField({ value, onChange, error }: DatasetsPickerProps) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const datasets = useDatasets({ filter: 'all', page: 1, search: debounced });
  const found = (datasets.data?.datasets ?? []).map((d) => ({ value: d.id, label: d.name }));
  // Chosen datasets not on the page found: their names from their details.
  const missing = value.filter((id) => !found.some((o) => o.value === id));
  const details = useQueries({ queries: missing.map((id) => getDatasetQueryOptions(id)) });
  const chosen = missing.map((id, i) => ({ value: id, label: details[i]?.data?.dataset.name ?? id }));
  return (
    <MultiSelect
      label="Dataset"
      description="The datasets the project's notebooks read."
      placeholder={datasets.isPending ? 'Loading datasets…' : value.length ? undefined : 'Choose a dataset'}
      data={[...chosen, ...found]}
      value={value}
      onChange={onChange}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      nothingFoundMessage="No dataset of that name"
      error={error}
      required
    />
  );
}

const datasetsPicker = (props: DatasetsPickerProps) => <DatasetsField {...props} />;
const gitTokenPrompt: GitTokenPrompt = (props) => <GitTokenModal {...props} />;

/** The projects feature's insight publish dialog for a legacy project; its notebooks are offered as driver files. */
function PublishProject({ projectId, language, files, onClose }: PublishDialogProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (
    <InsightPublishModal
      project={{ id: projectId, language }}
      openPaths={files}
      onClose={onClose}
      onPublished={() => {
        onClose();
        void queryClient.invalidateQueries({ queryKey: insightKeys.all });
        navigate(paths.insights.getHref());
      }}
    />
  );
}

const publishDialog = (props: PublishDialogProps) => <PublishProject {...props} />;

/**
 * The Share dialog of the sharing feature for a legacy project. It is the same asset as a project
 * v2 (docs/contracts/notebooks.md), so it is shared as 'Project_V2' (what POST /v1/projects/share
 * does too; 'Project' names the older legacy kind, which no project is).
 */
function useLegacyProjectShare() {
  const [sharing, setSharing] = useState<Pick<LegacyProjectView, 'id' | 'name'> | null>(null);
  const dialog = sharing && <ShareModal opened entityId={sharing.id} entityType="Project_V2" entityLabel={sharing.name} onClose={() => setSharing(null)} />;
  return { open: setSharing, dialog };
}

/** /projects */
export function LegacyProjectsRoute() {
  const share = useLegacyProjectShare();
  return (
    <NotebooksGate>
      <LegacyProjectsList onShare={share.open} gitTokenPrompt={gitTokenPrompt} />
      {share.dialog}
    </NotebooksGate>
  );
}

/** /projects/new */
export function LegacyProjectNewRoute() {
  return (
    <NotebooksGate>
      <LegacyProjectForm datasetsPicker={datasetsPicker} />
    </NotebooksGate>
  );
}

/** /projects/{id}, with its discussion (comments feature), Share and publish. */
export function LegacyProjectRoute() {
  const { id = '' } = useParams();
  const share = useLegacyProjectShare();
  return (
    <NotebooksGate>
      <LegacyProjectDetail key={id} id={id} onShare={share.open} discussion={<DiscussionButton referenceId={id} />} publishDialog={publishDialog} />
      {share.dialog}
    </NotebooksGate>
  );
}

/** /projects/{id}/edit */
export function LegacyProjectEditRoute() {
  const { id = '' } = useParams();
  return (
    <NotebooksGate>
      <LegacyProjectEditForm key={id} id={id} datasetsPicker={datasetsPicker} />
    </NotebooksGate>
  );
}

/** /add-notebooks?project={id} */
export function AddNotebookRoute() {
  const [params] = useSearchParams();
  const project = params.get('project') ?? '';
  return (
    <NotebooksGate>
      <NotebookCreateForm key={project} projectId={project} />
    </NotebooksGate>
  );
}

/** /import-notebooks?project={id} */
export function ImportNotebookRoute() {
  const [params] = useSearchParams();
  const project = params.get('project') ?? '';
  return (
    <NotebooksGate>
      <NotebookImportForm key={project} projectId={project} />
    </NotebooksGate>
  );
}

/** /notebooks/{id} */
export function NotebookRoute() {
  const { id = '' } = useParams();
  return (
    <NotebooksGate>
      <NotebookWorkspace key={id} id={id} />
    </NotebooksGate>
  );
}

/** /notebooks/{id}/edit */
export function NotebookEditRoute() {
  const { id = '' } = useParams();
  return (
    <NotebooksGate>
      <NotebookEditForm key={id} id={id} />
    </NotebooksGate>
  );
}

/** /notebooks/{id}/preview */
export function NotebookPreviewRoute() {
  const { id = '' } = useParams();
  return (
    <NotebooksGate>
      <NotebookPreview key={id} id={id} />
    </NotebooksGate>
  );
}
