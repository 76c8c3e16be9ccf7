import { describe, expect, it } from 'vitest';

import { isDirty, type OpenFiles, openFilesReducer } from '@/features/projects/components/open-files';
import { binaryContent, fileContent } from '@/testing/projects';

const empty: OpenFiles = { files: [], active: null };

describe('open files', () => {
  it('opens, edits, commits and closes files; the shown one follows', () => {
    let s = openFilesReducer(empty, { type: 'opened', file: fileContent('a.py', 'a') });
    s = openFilesReducer(s, { type: 'opened', file: fileContent('b.py', 'b') });
    expect(s.files.map((f) => f.path)).toEqual(['a.py', 'b.py']);
    expect(s.active).toBe('b.py');
    s = openFilesReducer(s, { type: 'edited', path: 'a.py', text: 'a2' });
    expect(isDirty(s.files[0])).toBe(true);
    expect(isDirty(s.files[1])).toBe(false);
    s = openFilesReducer(s, { type: 'committed', path: 'a.py', sha: 'new', text: 'a2' });
    expect(s.files[0]).toMatchObject({ sha: 'new', saved: 'a2', text: 'a2' });
    expect(isDirty(s.files[0])).toBe(false);
    s = openFilesReducer(s, { type: 'activated', path: 'a.py' });
    s = openFilesReducer(s, { type: 'closed', path: 'a.py' });
    expect(s).toMatchObject({ active: 'b.py' });
    s = openFilesReducer(s, { type: 'closed', path: 'b.py' });
    expect(s).toEqual(empty);
  });

  it('a commit of an older text keeps the newer edits unsaved', () => {
    let s = openFilesReducer(empty, { type: 'opened', file: fileContent('a.py', 'a') });
    s = openFilesReducer(s, { type: 'edited', path: 'a.py', text: 'a2' });
    s = openFilesReducer(s, { type: 'edited', path: 'a.py', text: 'a3' });
    s = openFilesReducer(s, { type: 'committed', path: 'a.py', sha: 'n', text: 'a2' });
    expect(isDirty(s.files[0])).toBe(true);
  });

  it('opening a file again keeps its unsaved text; reloading drops it', () => {
    let s = openFilesReducer(empty, { type: 'opened', file: fileContent('a.py', 'a') });
    s = openFilesReducer(s, { type: 'edited', path: 'a.py', text: 'mine' });
    s = openFilesReducer(s, { type: 'opened', file: fileContent('a.py', 'theirs', 'sha-2') });
    expect(s.files[0]).toMatchObject({ text: 'mine', saved: 'a' });
    s = openFilesReducer(s, { type: 'reloaded', file: fileContent('a.py', 'theirs', 'sha-2') });
    expect(s.files[0]).toMatchObject({ text: 'theirs', saved: 'theirs', sha: 'sha-2' });
  });

  it('keeps a binary file unedited', () => {
    let s = openFilesReducer(empty, { type: 'opened', file: binaryContent('x.bin', [0xff, 0x00]) });
    s = openFilesReducer(s, { type: 'edited', path: 'x.bin', text: 'nope' });
    expect(s.files[0]).toMatchObject({ binary: true, text: '' });
    expect(isDirty(s.files[0])).toBe(false);
  });

  it('closing the middle tab shows its right neighbour; closing an unknown path changes nothing', () => {
    let s = empty;
    for (const p of ['a', 'b', 'c']) s = openFilesReducer(s, { type: 'opened', file: fileContent(p, p) });
    s = openFilesReducer(s, { type: 'activated', path: 'b' });
    s = openFilesReducer(s, { type: 'closed', path: 'b' });
    expect(s.active).toBe('c');
    expect(openFilesReducer(s, { type: 'closed', path: 'zz' })).toBe(s);
    expect(openFilesReducer(s, { type: 'activated', path: 'zz' })).toBe(s);
  });
});
