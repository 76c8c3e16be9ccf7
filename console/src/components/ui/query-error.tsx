import { Alert, Button } from '@mantine/core';

/** A failed load, in place, with a retry. */
export function QueryError({ error, onRetry }: { error: Error; onRetry?: () => void }) {
  return (
    <Alert color="red" variant="light" title="Could not load this" role="alert">
      {error.message}
      {onRetry && (
        <Button size="xs" variant="light" color="red" mt="sm" display="block" onClick={onRetry}>
          Try again
        </Button>
      )}
    </Alert>
  );
}
