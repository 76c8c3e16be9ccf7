import type { ReactNode } from 'react';

import type { AccessLevel } from '@/lib/api/types';

/**
 * What the project screens borrow from other features. A feature never imports another (README
 * "Layout"), so the app layer passes these in (app/routes/projects.tsx).
 */

/** The card image picker (the insights feature's image selector). */
export type ImageFieldProps = {
  value: string | null | undefined;
  previewUrl?: string | null;
  onChange: (imgPath: string) => void;
  onUploadingChange?: (uploading: boolean) => void;
};
export type ImageField = (props: ImageFieldProps) => ReactNode;

/** The dialog that saves the user's git username and token (the users feature, PUT /v1/git_detail). */
export type GitTokenPromptProps = { opened: boolean; onClose: () => void; onSaved: () => void };
export type GitTokenPrompt = (props: GitTokenPromptProps) => ReactNode;

/** The project's linked workflows (the workflows feature); `canCreate` is false for view access. */
export type LinkedWorkflowsProps = { projectId: string; level: AccessLevel };
export type LinkedWorkflowsPanel = (props: LinkedWorkflowsProps) => ReactNode;

/** The publish chooser's Workflow branch (the workflows feature): `files` are offered besides the DAG file. */
export type WorkflowPublishProps = { projectId: string; files: string[]; onClose: () => void; onPublished: () => void };
export type WorkflowPublish = (props: WorkflowPublishProps) => ReactNode;
