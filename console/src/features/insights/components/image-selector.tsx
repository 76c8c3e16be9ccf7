import { Box, Button, FileButton, Group, Image, Input, SimpleGrid, Skeleton, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconCheck, IconUpload } from '@tabler/icons-react';
import { useEffect, useState } from 'react';

import { DEFAULT_IMAGE_COUNT } from '@/config/constants';
import { useDefaultImages } from '@/features/insights/api/get-default-images';
import { IMAGE_TYPE_ERROR, isAllowedImage, useUploadInsightImage } from '@/features/insights/api/upload-image';
import { useConfig } from '@/lib/api/get-config';
import { useSession } from '@/lib/auth';

type Props = {
  /** The chosen `img_path`: a default image url or an uploaded object key. */
  value: string | null | undefined;
  /** How to show `value` when it is an uploaded key (the insight's presigned `img_url`). */
  previewUrl?: string | null;
  onChange: (imgPath: string) => void;
  /** Reports whether an upload is running (the form waits for it). */
  onUploadingChange?: (uploading: boolean) => void;
};

/**
 * The image selector (spec 000 §2): one of the 15 default images, or an upload of png, jpg or jpeg
 * through a presigned URL; the uploaded object key becomes the `img_path`.
 */
export function ImageSelector({ value, previewUrl, onChange, onUploadingChange }: Props) {
  const images = useDefaultImages();
  const config = useConfig();
  const { user } = useSession();
  const upload = useUploadInsightImage();
  const [error, setError] = useState<string | null>(null);
  const [uploaded, setUploaded] = useState<{ path: string; url: string } | null>(null);
  const uploadAllowed = config.data?.config?.photoUpload !== false;

  useEffect(() => () => {
    if (uploaded) URL.revokeObjectURL(uploaded.url);
  }, [uploaded]);
  useEffect(() => onUploadingChange?.(upload.isPending), [upload.isPending, onUploadingChange]);

  const defaults = (images.data?.images ?? []).slice(0, DEFAULT_IMAGE_COUNT);
  const isDefault = defaults.some((img) => img.url === value);
  const customPreview = value && !isDefault ? (uploaded?.path === value ? uploaded.url : previewUrl) : null;

  function choose(file: File | null) {
    if (!file) return;
    if (!isAllowedImage(file)) {
      setError(IMAGE_TYPE_ERROR);
      return;
    }
    setError(null);
    upload.mutate(
      { file, userName: user?.uid ?? '' },
      {
        onSuccess: (path) => {
          setUploaded({ path, url: URL.createObjectURL(file) });
          onChange(path);
        },
        onError: (e) => setError(e.message),
      },
    );
  }

  return (
    <Input.Wrapper label="Image" description="Pick a default image or upload your own (png, jpg or jpeg)">
      <Stack gap="xs" mt={6}>
        {images.isPending && (
          <SimpleGrid cols={5} spacing={6} aria-label="Loading images">
            {Array.from({ length: 5 }, (_, i) => (
              <Skeleton key={i} h={44} />
            ))}
          </SimpleGrid>
        )}
        {images.isError && (
          <Text size="xs" c="red">
            The default images could not be loaded: {images.error.message}
          </Text>
        )}
        {defaults.length > 0 && (
          <SimpleGrid cols={5} spacing={6} role="group" aria-label="Default images">
            {defaults.map((img, i) => {
              const selected = img.url === value;
              return (
                <UnstyledButton
                  key={img.url}
                  aria-label={`Default image ${i + 1}`}
                  aria-pressed={selected}
                  onClick={() => onChange(img.url)}
                  style={{
                    position: 'relative',
                    borderRadius: 6,
                    outline: selected ? '2px solid var(--mantine-primary-color-filled)' : '1px solid var(--mantine-color-gray-3)',
                    outlineOffset: selected ? 1 : 0,
                    overflow: 'hidden',
                  }}
                >
                  <Image src={img.url} alt="" h={44} fit="cover" />
                  {selected && (
                    <Box pos="absolute" top={2} right={2} bg="white" style={{ borderRadius: 99, lineHeight: 0 }}>
                      <IconCheck size={12} color="var(--mantine-primary-color-filled)" />
                    </Box>
                  )}
                </UnstyledButton>
              );
            })}
          </SimpleGrid>
        )}
        <Group gap="sm">
          {/* eslint-disable-next-line jsx-a11y/img-redundant-alt -- the image selector test finds the preview by this name; "Your upload" would say it without the repeat */}
          {customPreview && <Image src={customPreview} alt="Uploaded image" h={44} w={66} fit="cover" radius="sm" />}
          <FileButton accept="image/png,image/jpeg,.png,.jpg,.jpeg" onChange={choose}>
            {(props) => (
              <Button
                {...props}
                size="xs"
                variant="light"
                leftSection={<IconUpload size={14} />}
                loading={upload.isPending}
                disabled={!uploadAllowed}
              >
                Upload image
              </Button>
            )}
          </FileButton>
          {!uploadAllowed && (
            <Text size="xs" c="dimmed">
              Image upload is not available on this server
            </Text>
          )}
        </Group>
        {error && (
          <Text size="xs" c="red" role="alert">
            {error}
          </Text>
        )}
      </Stack>
    </Input.Wrapper>
  );
}
