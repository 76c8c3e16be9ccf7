import { Alert, Button, Code, CopyButton, Group, Modal, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

import { COPY_CONFIRMATION_MS } from '@/config/constants';
import { useAccessUrl } from '@/features/datasets/api/get-access-url';
import { baseName } from '@/features/datasets/utils/files';
import { useDates } from '@/lib/dates';

/** A copy button whose label reads 'Copied' for 700 ms (spec 001 §9). */
export function CopyField({ label, value, description }: { label: string; value: string; description: string }) {
  return (
    <Stack gap={4}>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <TextInput label={label} description={description} value={value} readOnly style={{ flex: 1 }} onFocus={(e) => e.currentTarget.select()} />
        <CopyButton value={value} timeout={COPY_CONFIRMATION_MS}>
          {({ copied, copy }) => (
            <Button
              variant={copied ? 'filled' : 'light'}
              color={copied ? 'teal' : undefined}
              leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
              onClick={copy}
              aria-label={`${copied ? 'Copied' : 'Copy'} ${label.toLowerCase()}`}
              w={110}
            >
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}


/**
 * The access URLs of a file (spec 001 §7): a temporary address valid 7 days that needs no API key,
 * and a permanent one that needs your API key (header x-api-key) and never expires.
 */
export function AccessUrlModal({ datasetId, fileKey, onClose }: { datasetId: string; fileKey: string; onClose: () => void }) {
  const dates = useDates();
  const name = baseName(fileKey);
  const urls = useAccessUrl(datasetId, fileKey);
  const data = urls.data;
  return (
    <Modal opened onClose={onClose} title={`Access URL: ${name}`} size="lg" centered>
      {urls.isPending && (
        <Stack gap="sm" role="status" aria-label="Loading access URLs">
          <Skeleton h={56} />
          <Skeleton h={56} />
        </Stack>
      )}
      {urls.isError && (
        <Alert color="red" variant="light" role="alert">
          {urls.error.message}
        </Alert>
      )}
      {data && (
        <Stack gap="lg">
          <CopyField
            label="Temporary URL"
            value={data.temporary_url}
            description={`Valid for 7 days (until ${dates.dateTime(data.expires_at)}); no API key needed.`}
          />
          <CopyField
            label="Permanent URL"
            value={data.permanent_url}
            description="Does not expire; needs your API key (from your profile settings)."
          />
          <Stack gap={4}>
            <Text size="xs" c="dimmed">
              Send the key in the x-api-key header; the answer redirects to the file:
            </Text>
            <Code block>{`curl -L -H "x-api-key: $LUDIS_API_KEY" '${data.permanent_url}' -o '${name}'`}</Code>
          </Stack>
        </Stack>
      )}
    </Modal>
  );
}
