import { Alert, Button, Group } from '@mantine/core';

/** A dialog form's end: why the last submit failed, Cancel and the submit button. */
export function ModalActions({
  error,
  errorTitle,
  submitLabel,
  loading,
  disabled,
  onCancel,
}: {
  error?: string | null;
  errorTitle?: string;
  submitLabel: string;
  loading?: boolean;
  disabled?: boolean;
  onCancel: () => void;
}) {
  return (
    <>
      {error && (
        <Alert color="red" variant="light" role="alert" title={errorTitle}>
          {error}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={loading} disabled={disabled}>
          {submitLabel}
        </Button>
      </Group>
    </>
  );
}
