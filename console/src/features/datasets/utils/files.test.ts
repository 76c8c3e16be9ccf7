import { describe, expect, it } from 'vitest';

import {
  baseName,
  extensionOf,
  folderFromParam,
  folderSegments,
  formatBytes,
  ignoreBlank,
  isAcceptedFile,
  partitionFiles,
  refusedMessage,
} from '@/features/datasets/utils/files';

describe('formatBytes (spec 001 §9: bytes below 1,000, then KB, MB, GB with 2 decimals)', () => {
  it('counts bytes below 1,000', () => {
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(12)).toBe('12 bytes');
    expect(formatBytes(999)).toBe('999 bytes');
  });
  it('uses KB, MB and GB in steps of 1,000 with 2 decimals', () => {
    expect(formatBytes(1000)).toBe('1.00 KB');
    expect(formatBytes(1536)).toBe('1.54 KB');
    expect(formatBytes(999_990)).toBe('999.99 KB');
    expect(formatBytes(1_500_000)).toBe('1.50 MB');
    expect(formatBytes(2_000_000_000)).toBe('2.00 GB');
    expect(formatBytes(5_000_000_000_000)).toBe('5000.00 GB');
  });
  it('moves to the next unit instead of showing 1000.00', () => {
    expect(formatBytes(999_999)).toBe('1.00 MB');
    expect(formatBytes(999_999_999)).toBe('1.00 GB');
  });
  it('shows nothing strange for missing or bad values', () => {
    expect(formatBytes(undefined)).toBe('0 bytes');
    expect(formatBytes(null)).toBe('0 bytes');
    expect(formatBytes(-5)).toBe('0 bytes');
    expect(formatBytes(Number.NaN)).toBe('0 bytes');
  });
});

describe('accepted files', () => {
  it('knows the six extensions, case-insensitively', () => {
    for (const n of ['a.csv', 'b.JSON', 'c.xml', 'd.txt', 'e.XLSX', 'f.xls', 'dir/g.csv']) expect(isAcceptedFile(n)).toBe(true);
    for (const n of ['a.pdf', 'csv', '.csv', 'a.csv.exe', 'notes', 'x.xlsm']) expect(isAcceptedFile(n)).toBe(false);
    expect(extensionOf('Report.Final.XLSX')).toBe('.xlsx');
  });
  it('splits a pick into accepted files and refused names, and says which were refused', () => {
    const files = [new File(['a'], 'a.csv'), new File(['b'], 'b.pdf'), new File(['c'], 'c.json'), new File(['d'], 'd.exe')];
    const { accepted, refused } = partitionFiles(files);
    expect(accepted.map((f) => f.name)).toEqual(['a.csv', 'c.json']);
    expect(refused).toEqual(['b.pdf', 'd.exe']);
    expect(refusedMessage(refused)).toBe('Only .csv, .json, .xml, .txt, .xlsx and .xls files can be uploaded. Not accepted: b.pdf, d.exe');
  });
});

describe('keys and folders', () => {
  it('names entries by their last segment', () => {
    expect(baseName('a/b/c.csv')).toBe('c.csv');
    expect(baseName('a/b/')).toBe('b');
    expect(baseName('top.csv')).toBe('top.csv');
  });
  it('breaks a prefix into clickable segments', () => {
    expect(folderSegments('')).toEqual([]);
    expect(folderSegments('a/b/')).toEqual([
      { name: 'a', path: 'a/' },
      { name: 'b', path: 'a/b/' },
    ]);
  });
  it('reads the ?path= parameter as a folder', () => {
    expect(folderFromParam(null)).toBe('');
    expect(folderFromParam('/')).toBe('');
    expect(folderFromParam('a/b')).toBe('a/b/');
    expect(folderFromParam('/a//b/')).toBe('a/b/');
    expect(folderFromParam('a/../b/./')).toBe('a/b/');
  });
  it('ignores input of only blanks', () => {
    expect(ignoreBlank('   ')).toBe('');
    expect(ignoreBlank('\t')).toBe('');
    expect(ignoreBlank(' a ')).toBe(' a ');
  });
});
