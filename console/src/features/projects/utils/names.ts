import { PROJECT_MESSAGES } from '@/features/projects/utils/messages';

/** Letters, numbers, underscores, hyphens, periods and spaces (spec 001 §5 "Project v2 name"). */
const PROJECT_NAME = /^[A-Za-z0-9_.\- ]+$/;
export const MAX_PROJECT_NAME = 128;

/** The spec's message for a bad project name, or null. Whitespace-only counts as empty. */
export function projectNameError(name: string): string | null {
  const trimmed = name.trim();
  if (!trimmed) return PROJECT_MESSAGES.emptyName;
  if (!PROJECT_NAME.test(trimmed) || trimmed.length > MAX_PROJECT_NAME) return PROJECT_MESSAGES.invalidName;
  return null;
}

/**
 * The project name and repository author of an HTTPS git URL ("import project", spec 001 §5):
 * the last path segment without `.git`, and the segments before it (the owner, or a GitLab group
 * path). Null when it is not an https:// address with an owner and a repository.
 */
export function parseRepoUrl(raw: string): { url: string; name: string; author: string } | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || !url.hostname || url.username || url.password || url.search || url.hash) return null;
  const segments = url.pathname.split('/').filter(Boolean);
  if (segments.length < 2) return null;
  const name = decodeURIComponent(segments.at(-1)!).replace(/\.git$/, '');
  const author = segments.slice(0, -1).map(decodeURIComponent).join('/');
  if (!name || !author) return null;
  return { url: url.toString().replace(/\/$/, ''), name, author };
}
