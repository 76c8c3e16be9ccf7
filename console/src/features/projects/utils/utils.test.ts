import { describe, expect, it } from 'vitest';

import {
  NEED_EDIT,
  NEED_EXECUTE_OR_EDIT,
  RUN_FOR_LOGS,
  RUN_FOR_TERMINAL,
  RUN_FOR_WEB_VIEW,
  workspaceGates,
} from '@/features/projects/utils/access';
import { checkFilePath, decodeText, editorLanguage, encodeText, isImageFile, joinPath, parentFolder } from '@/features/projects/utils/files';
import { parseRepoUrl, projectNameError } from '@/features/projects/utils/names';

const RUNNING = { status: 'running' as const, container_id: 'p1', web_url: 'https://p1.apps.example/' };
const STOPPED = { status: 'stopped' as const, container_id: null, web_url: null };

describe('project names (spec 001 §5)', () => {
  it.each([
    ['Sales', null],
    ['sales_2024-v1.2 final', null],
    ['', 'Empty project name not allowed.'],
    ['   ', 'Empty project name not allowed.'],
    ['a/b', 'Project name can only contain letters, numbers, underscores, hyphens, and periods'],
    ['émile', 'Project name can only contain letters, numbers, underscores, hyphens, and periods'],
    ['x'.repeat(129), 'Project name can only contain letters, numbers, underscores, hyphens, and periods'],
  ])('%j → %j', (name, error) => expect(projectNameError(name)).toBe(error));

  it('derives name and repository author from an HTTPS git URL', () => {
    expect(parseRepoUrl('https://github.com/ada/engine.git')).toEqual({ url: 'https://github.com/ada/engine.git', name: 'engine', author: 'ada' });
    expect(parseRepoUrl(' https://gitea.local/ada/engine/ ')).toEqual({ url: 'https://gitea.local/ada/engine', name: 'engine', author: 'ada' });
    expect(parseRepoUrl('https://gitlab.com/g/sub/repo')).toMatchObject({ name: 'repo', author: 'g/sub' });
    for (const bad of ['http://github.com/a/b', 'git@github.com:a/b.git', 'https://github.com/a', 'https://u:p@github.com/a/b', 'https://github.com/a/b?x=1', 'nonsense']) {
      expect(parseRepoUrl(bad)).toBeNull();
    }
  });
});

describe('files', () => {
  it('round-trips UTF-8 through base64 and tells binary files apart', () => {
    const text = 'print("héllo ✓")\n';
    expect(decodeText(encodeText(text))).toBe(text);
    expect(decodeText(btoa(String.fromCharCode(0xff, 0xfe, 0x00)))).toBeNull();
    expect(decodeText(encodeText(''))).toBe('');
  });

  it('opens .jpg, .jpeg, .png, .gif and .svg in a new tab (spec 001 §9)', () => {
    for (const p of ['a.jpg', 'b/c.JPEG', 'd.png', 'e.gif', 'f.svg']) expect(isImageFile(p)).toBe(true);
    for (const p of ['a.py', 'b.webp', 'svg', '.png']) expect(isImageFile(p)).toBe(false);
  });

  it('picks the editor language by extension', () => {
    expect(editorLanguage('app.py')).toBe('python');
    expect(editorLanguage('analysis.R')).toBe('r');
    expect(editorLanguage('report.Rmd')).toBe('markdown');
    expect(editorLanguage('README.md')).toBe('markdown');
    expect(editorLanguage('cfg.yml')).toBe('yaml');
    expect(editorLanguage('data.json')).toBe('json');
    expect(editorLanguage('run.sh')).toBe('shell');
    expect(editorLanguage('Makefile')).toBeNull();
  });

  it('checks a new file path as strictly as the git layer', () => {
    expect(checkFilePath(' src/app.py ')).toEqual({ path: 'src/app.py' });
    for (const bad of ['/etc/passwd', '../x', 'a/../b', '.git/config', 'a//b', 'a\\b', 'a/.', 'x/']) {
      expect(checkFilePath(bad)).toEqual({ error: 'A file name may not start with /, contain .. or name a .git folder' });
    }
    expect(checkFilePath('  ')).toEqual({ error: 'Please enter a file name' });
  });

  it('joins and splits folder paths', () => {
    expect(joinPath('', 'a.py')).toBe('a.py');
    expect(joinPath('src', 'a.py')).toBe('src/a.py');
    expect(parentFolder('src/lib/a.py')).toBe('src/lib');
    expect(parentFolder('a.py')).toBe('');
  });
});

describe('workspace gates (spec 001 §6)', () => {
  it('view: everything disabled with the spec tooltips', () => {
    expect(workspaceGates('view', RUNNING)).toEqual({
      run: NEED_EXECUTE_OR_EDIT,
      commit: NEED_EDIT,
      webView: NEED_EXECUTE_OR_EDIT,
      secrets: NEED_EDIT,
      logs: NEED_EXECUTE_OR_EDIT,
      terminal: NEED_EXECUTE_OR_EDIT,
      image: NEED_EDIT,
      files: NEED_EDIT,
      publish: NEED_EXECUTE_OR_EDIT,
      share: NEED_EDIT,
    });
  });

  it('execute: runs, and sees logs, terminal and web view once running; no editing', () => {
    expect(workspaceGates('execute', STOPPED)).toMatchObject({ run: null, webView: RUN_FOR_WEB_VIEW, logs: RUN_FOR_LOGS, terminal: RUN_FOR_TERMINAL, commit: NEED_EDIT });
    expect(workspaceGates('execute', RUNNING)).toMatchObject({ run: null, webView: null, logs: null, terminal: null, secrets: NEED_EDIT, publish: NEED_EDIT });
  });

  it('a failed preview keeps its log open to executors: it says why', () => {
    const failed = { status: 'failed' as const, container_id: null, web_url: null };
    expect(workspaceGates('execute', failed)).toMatchObject({ logs: null, terminal: RUN_FOR_TERMINAL, webView: RUN_FOR_WEB_VIEW });
    expect(workspaceGates('view', failed).logs).toBe(NEED_EXECUTE_OR_EDIT);
  });

  it('edit: everything, the container-bound tools once running', () => {
    expect(workspaceGates('edit', STOPPED)).toEqual({
      run: null,
      commit: null,
      webView: RUN_FOR_WEB_VIEW,
      secrets: null,
      logs: RUN_FOR_LOGS,
      terminal: RUN_FOR_TERMINAL,
      image: null,
      files: null,
      publish: null,
      share: null,
    });
    expect(Object.values(workspaceGates('edit', RUNNING)).every((g) => g === null)).toBe(true);
    // A running container without a web address has no web view yet.
    expect(workspaceGates('edit', { status: 'running', container_id: 'p1', web_url: null }).webView).toBe(RUN_FOR_WEB_VIEW);
    expect(workspaceGates('edit', { status: 'running', container_id: 'p1', web_url: 'javascript:alert(1)' }).webView).toBe(RUN_FOR_WEB_VIEW);
  });
});
