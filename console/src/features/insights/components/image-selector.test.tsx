import { fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';

import { IMAGE_TYPE_ERROR } from '@/features/insights/api/upload-image';
import { ImageSelector } from '@/features/insights/components/image-selector';
import { mockFetch, on } from '@/testing/fetch-mock';
import { renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

const defaults = Array.from({ length: 15 }, (_, i) => ({ name: `insight-${i + 1}.svg`, url: `/v1/images/defaults/insight-${i + 1}.svg` }));
const images = on('GET', '/v1/images/defaults', { body: { success: true, images: defaults } });
const config = on('GET', '/v1/config', { body: { success: true, config: { photoUpload: true } } });

function Harness({ onChange }: { onChange: (p: string) => void }) {
  const [value, setValue] = useState<string | null>(null);
  return (
    <ImageSelector
      value={value}
      onChange={(p) => {
        setValue(p);
        onChange(p);
      }}
    />
  );
}

describe('image selector', () => {
  it('offers the 15 default images and marks the chosen one', async () => {
    signIn();
    mockFetch(images, config);
    const onChange = vi.fn();
    renderWithProviders(<Harness onChange={onChange} />);
    const group = await screen.findByRole('group', { name: 'Default images' });
    expect(within(group).getAllByRole('button')).toHaveLength(15);
    await user().click(within(group).getByRole('button', { name: 'Default image 7' }));
    expect(onChange).toHaveBeenCalledWith('/v1/images/defaults/insight-7.svg');
    expect(within(group).getByRole('button', { name: 'Default image 7' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(group).getByRole('button', { name: 'Default image 1' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('refuses files other than png, jpg and jpeg', async () => {
    signIn();
    const calls = mockFetch(images, config);
    renderWithProviders(<Harness onChange={() => undefined} />);
    await screen.findByRole('group', { name: 'Default images' });
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'logo.gif', { type: 'image/gif' })] } });
    expect(await screen.findByRole('alert')).toHaveTextContent(IMAGE_TYPE_ERROR);
    expect(calls.some((c) => c.url.includes('presign'))).toBe(false);
  });

  it('uploads a png through a presigned URL and uses its key as img_path', async () => {
    signIn({ uid: 'u-42' });
    const calls = mockFetch(
      images,
      config,
      on('GET', '/v1/users/presign_url', {
        body: { success: true, urls: [{ presigned_url: 'https://s3.test/put?sig=1', photo_path: 'user asset images/u-42/abc.png' }] },
      }),
      on('PUT', 'https://s3.test/put', { status: 200 }),
    );
    const onChange = vi.fn();
    renderWithProviders(<Harness onChange={onChange} />);
    await screen.findByRole('group', { name: 'Default images' });
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'Chart.PNG', { type: 'image/png' })] } });
    await vi.waitFor(() => expect(onChange).toHaveBeenCalledWith('user asset images/u-42/abc.png'));
    expect(calls.filter((c) => !c.url.startsWith('/v1/images') && c.url !== '/v1/config').map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET /v1/users/presign_url?user_name=u-42&ext=.png',
      'PUT https://s3.test/put?sig=1',
    ]);
    expect(await screen.findByRole('img', { name: 'Uploaded image' })).toBeInTheDocument();
  });

  it('disables the upload when the server has no object storage', async () => {
    signIn();
    mockFetch(images, on('GET', '/v1/config', { body: { success: true, config: { photoUpload: false } } }));
    renderWithProviders(<Harness onChange={() => undefined} />);
    expect(await screen.findByText('Image upload is not available on this server')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload image' })).toBeDisabled();
  });
});
