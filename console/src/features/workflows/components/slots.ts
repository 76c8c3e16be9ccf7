import type { ReactNode } from 'react';

/**
 * What the workflow screens borrow from other features. A feature never imports another (README
 * "Layout"), so the app layer passes these in (app/routes/workflows.tsx, app/routes/projects.tsx).
 */

/** A project the caller can see (the projects feature's list). */
export type ProjectPickerProps = { value: string | null; onChange: (id: string | null) => void; error?: string; label: string };
export type ProjectPicker = (props: ProjectPickerProps) => ReactNode;

/** A file of a project (POST /v2/projects/repocontents/{id}); `accept` keeps the files offered. */
export type ProjectFilePickerProps = {
  projectId: string;
  label: string;
  description?: string;
  value: string | null;
  onChange: (path: string | null) => void;
  accept: (path: string) => boolean;
  error?: string;
  required?: boolean;
  disabled?: boolean;
};
export type ProjectFilePicker = (props: ProjectFilePickerProps) => ReactNode;

/** An image of the administrator's list (GET /v2/cluster/dockerimages/list); the value is its name. */
export type ImagePickerProps = { value: string | null; onChange: (name: string | null) => void; error?: string; disabled?: boolean };
export type ImagePicker = (props: ImagePickerProps) => ReactNode;

/** A dataset the caller can edit (the datasets feature's list). */
export type DatasetChoice = { id: string; name: string };
export type DatasetPickerProps = { value: DatasetChoice | null; onChange: (d: DatasetChoice | null) => void; error?: string; disabled?: boolean };
export type DatasetPicker = (props: DatasetPickerProps) => ReactNode;

/** Everything the designer's side panel borrows. */
export type DesignerPickers = { file: ProjectFilePicker; image: ImagePicker; dataset: DatasetPicker };

/** Opens the sharing feature's Share dialog for a workflow. */
export type OnShare = (w: { id: string; name: string }) => void;
