import { Skeleton, Stack } from '@mantine/core';

/** A list or table still loading: `rows` grey bars of `height`, announced as `label`. */
export function LoadingRows({ label, rows = 6, height = 36 }: { label: string; rows?: number; height?: number }) {
  return (
    <Stack gap={6} role="status" aria-label={label}>
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} h={height} />
      ))}
    </Stack>
  );
}
