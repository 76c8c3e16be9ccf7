import { Alert, Anchor, Button, Group } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';

import { ApiError } from '@/lib/api-client';

/** Where a page that cannot be shown sends the user back to. */
export type BackTo = { label: string; href: string };

/** True for an answer saying the thing does not exist, or is not the caller's to see (404). */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/**
 * A failed load, in place. A thing that is not there (404) is said so, with a way back (`back`)
 * and no retry, since trying again cannot find it; any other failure offers 'Try again'.
 */
export function QueryError({ error, onRetry, back }: { error: Error; onRetry?: () => void; back?: BackTo }) {
  if (isNotFound(error)) {
    return (
      <Alert color="gray" variant="light" title="Not found" role="alert">
        {error.message}
        {back && (
          <Anchor component={Link} to={back.href} size="sm" display="block" mt="sm">
            <Group gap={4} component="span">
              <IconArrowLeft size={14} />
              {back.label}
            </Group>
          </Anchor>
        )}
      </Alert>
    );
  }
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
