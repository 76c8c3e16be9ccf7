import { describe, expect, it } from 'vitest';

import { canvasNode, type CanvasNode } from '@/features/workflows/utils/design';
import type { NodeData } from '@/lib/api/types';
import { designProblems, hasExtension, isScriptFile, nodeProblem, TASK_MESSAGES, validateScript, validateUpload } from '@/features/workflows/utils/tasks';

/** A node as the API answers it (settings filled in as the API fills them). */
const node = (data: NodeData, id = 'n1'): CanvasNode => canvasNode({ id, data });

describe('node → task validation', () => {
  it.each([
    ['etl.py', true],
    ['analysis/model.R', true],
    ['report.Rmd', true],
    ['notes.txt', false],
    ['py', false],
    ['run.sh', false],
  ])('script file %s → %s', (f, ok) => {
    expect(isScriptFile(f)).toBe(ok);
  });

  it.each([
    ['data/out.csv', true],
    ['a.b/c', false],
    ['.env', false],
    ['file.', false],
    ['report.pdf', true],
  ])('extension of %s → %s', (f, ok) => {
    expect(hasExtension(f)).toBe(ok);
  });

  it('checks a script task: file, image, optional .sh install script', () => {
    expect(validateScript({ fileName: 'a.py', image: 'python' })).toEqual({});
    expect(validateScript({ fileName: 'a.py', image: 'python', installScript: 'setup.sh' })).toEqual({});
    expect(validateScript({ fileName: 'a.txt', installScript: 'setup.py' })).toEqual({
      fileName: TASK_MESSAGES.scriptFile,
      image: TASK_MESSAGES.image,
      installScript: TASK_MESSAGES.installScript,
    });
  });

  it('checks an upload task: a file with an extension, a dataset, a destination (the root is "")', () => {
    expect(validateUpload({ fileName: 'out.csv', datasetID: 'd1', datasetPath: '' })).toEqual({});
    expect(validateUpload({ fileName: 'out' })).toEqual({
      fileName: TASK_MESSAGES.uploadFile,
      datasetID: TASK_MESSAGES.dataset,
      datasetPath: TASK_MESSAGES.destination,
    });
  });

  it('says why each node is not ready', () => {
    const empty = node({ label: 'extract', taskType: null });
    const script = node({ label: 'train', taskType: 'script', taskData: { fileName: 'train.py', image: 'python' } }, 'n2');
    const badUpload = node(
      { label: 'load', taskType: 'upload', taskData: { fileName: 'out', datasetID: 'd', datasetName: 'D', datasetDestination: '', datasetPath: '' } },
      'n3',
    );
    expect(nodeProblem(empty)).toBe(TASK_MESSAGES.unconfigured);
    expect(nodeProblem(script)).toBeNull();
    expect(nodeProblem(node({ label: ' ', taskType: null }))).toBe(TASK_MESSAGES.label);
    expect(designProblems([empty, script, badUpload])).toEqual([`extract: ${TASK_MESSAGES.unconfigured}`, `load: ${TASK_MESSAGES.uploadFile}`]);
  });
});
