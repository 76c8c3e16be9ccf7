import type { ReactNode } from 'react';

import type { Language } from '@/lib/api/types';

/**
 * What the legacy project and notebook screens borrow from other features. A feature never
 * imports another (README "Layout"), so the app layer passes these in (app/routes/notebooks.tsx).
 */

/** The dialog that saves the user's git username and token (the users feature, PUT /v1/git_detail). */
export type GitTokenPromptProps = { opened: boolean; onClose: () => void; onSaved: () => void };
export type GitTokenPrompt = (props: GitTokenPromptProps) => ReactNode;

/** Datasets the caller can see, several at a time (the datasets feature's list). */
export type DatasetsPickerProps = { value: string[]; onChange: (ids: string[]) => void; error?: string | null };
export type DatasetsPicker = (props: DatasetsPickerProps) => ReactNode;

/** The insight publish dialog (the projects feature's), for this project; `files` are its notebooks. */
export type PublishDialogProps = { projectId: string; language: Language; files: string[]; onClose: () => void };
export type PublishDialog = (props: PublishDialogProps) => ReactNode;
