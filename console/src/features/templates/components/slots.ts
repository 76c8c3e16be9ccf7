import type { ReactNode } from 'react';

/** A dataset the caller can see (the datasets feature's, through the app layer). */
export type DatasetPickerProps = { value: string | null; onChange: (id: string | null, name: string) => void; error?: string };
export type DatasetPicker = (props: DatasetPickerProps) => ReactNode;
