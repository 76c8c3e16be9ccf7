import { Textarea, TextInput } from '@mantine/core';

export type NotebookFieldValues = { name: string; description: string };
export type NotebookFieldErrors = { name?: string | null; description?: string | null };

/** A notebook's name and description, as the create, import and edit forms ask for them. */
export function NotebookFields({
  values,
  errors,
  required = true,
  onChange,
}: {
  values: NotebookFieldValues;
  errors: NotebookFieldErrors;
  /** False on the import, where both default to the source's. */
  required?: boolean;
  onChange: (values: NotebookFieldValues, field: keyof NotebookFieldValues) => void;
}) {
  return (
    <>
      <TextInput
        label="Notebook name"
        required={required}
        data-autofocus
        value={values.name}
        error={errors.name}
        onChange={(e) => onChange({ ...values, name: e.currentTarget.value }, 'name')}
      />
      <Textarea
        label="Description"
        required={required}
        autosize
        minRows={2}
        maxRows={5}
        value={values.description}
        error={errors.description}
        onChange={(e) => onChange({ ...values, description: e.currentTarget.value }, 'description')}
      />
    </>
  );
}
