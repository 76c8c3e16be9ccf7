import { baseName, imageType } from '@/features/projects/utils/files';

/**
 * Shows an image of the repository in a tab the click opened (`tab`, from window.open('') while
 * the click was still a user gesture, so no pop-up blocker stops it). The tab gets a page with an
 * <img> of the bytes: an SVG shown as an image runs no script, whatever the repository holds.
 */
export function showImageInTab(tab: Window, path: string, bytes: Uint8Array<ArrayBuffer>) {
  const url = URL.createObjectURL(new Blob([bytes], { type: imageType(path) }));
  const doc = tab.document;
  doc.title = baseName(path);
  const img = doc.createElement('img');
  img.alt = baseName(path);
  img.style.maxWidth = '100%';
  img.addEventListener('load', () => URL.revokeObjectURL(url), { once: true });
  img.src = url;
  doc.body.replaceChildren(img);
}
