import { Button, Group, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';

/** Prev, the page number, Next (spec 000 §2 pagination). `pages` is shown when known. */
export function Pager({
  page,
  pages,
  hasPrev,
  hasNext,
  onPrev,
  onNext,
  label,
  loading,
}: {
  page: number;
  pages?: number;
  hasPrev: boolean;
  hasNext: boolean;
  onPrev: () => void;
  onNext: () => void;
  label: string;
  loading?: boolean;
}) {
  return (
    <Group justify="center" gap="sm" role="navigation" aria-label={label}>
      <Button variant="default" size="xs" leftSection={<IconChevronLeft size={14} />} disabled={!hasPrev || loading} onClick={onPrev}>
        Prev
      </Button>
      <Text size="sm" aria-current="page" data-testid="page-number">
        {pages ? `Page ${page} of ${pages}` : `Page ${page}`}
      </Text>
      <Button variant="default" size="xs" rightSection={<IconChevronRight size={14} />} disabled={!hasNext || loading} onClick={onNext}>
        Next
      </Button>
    </Group>
  );
}
