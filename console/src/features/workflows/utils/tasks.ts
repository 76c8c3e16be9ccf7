import type { CanvasNode, TaskNodeData } from '@/features/workflows/utils/design';
import type { TaskData } from '@/lib/api/types';

/** A script task's settings. */
export type ScriptTaskData = Pick<TaskData, 'fileName' | 'image' | 'installScript' | 'size'>;
/** An upload task's settings. */
export type UploadTaskData = Pick<TaskData, 'fileName' | 'datasetID' | 'datasetName' | 'datasetDestination' | 'datasetPath'>;

/** A script node's settings so far (none yet: an empty object). */
export function scriptData(data: TaskNodeData): ScriptTaskData {
  return data.taskType === 'script' ? data.taskData : {};
}

/** An upload node's settings so far. */
export function uploadData(data: TaskNodeData): UploadTaskData {
  return data.taskType === 'upload' ? data.taskData : {};
}

/** The designer's messages (spec 001 §5). */
export const TASK_MESSAGES = {
  scriptFile: 'File must end in .r, .py, or .rmd',
  uploadFile: 'Please enter a valid file name with an extension',
  installScript: 'The install script must end in .sh',
  image: 'Please select an image',
  dataset: 'Please select a dataset',
  destination: 'Please select a destination folder',
  label: 'Please name the task',
  unconfigured: 'Choose a script or upload task',
} as const;

export const SCRIPT_EXTENSIONS = ['.r', '.py', '.rmd'] as const;

const lower = (s: string) => s.trim().toLowerCase();

export function isScriptFile(path: string): boolean {
  return SCRIPT_EXTENSIONS.some((ext) => lower(path).endsWith(ext));
}

export function isInstallScript(path: string): boolean {
  return lower(path).endsWith('.sh');
}

/** A file name with an extension: something after the last dot of the last path segment. */
export function hasExtension(path: string): boolean {
  const name = path.trim().split('/').pop() ?? '';
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1;
}

export type ScriptErrors = Partial<Record<keyof ScriptTaskData, string>>;
export type UploadErrors = Partial<Record<'fileName' | 'datasetID' | 'datasetPath', string>>;

export function validateScript(d: ScriptTaskData): ScriptErrors {
  const errors: ScriptErrors = {};
  if (!d.fileName || !isScriptFile(d.fileName)) errors.fileName = TASK_MESSAGES.scriptFile;
  if (!d.image) errors.image = TASK_MESSAGES.image;
  if (d.installScript && !isInstallScript(d.installScript)) errors.installScript = TASK_MESSAGES.installScript;
  return errors;
}

export function validateUpload(d: UploadTaskData): UploadErrors {
  const errors: UploadErrors = {};
  if (!d.fileName || !hasExtension(d.fileName)) errors.fileName = TASK_MESSAGES.uploadFile;
  if (!d.datasetID) errors.datasetID = TASK_MESSAGES.dataset;
  if (d.datasetPath === undefined || d.datasetPath === null) errors.datasetPath = TASK_MESSAGES.destination;
  return errors;
}

/** Why a node cannot become a task yet (the first reason), or null when it is ready to publish. */
export function nodeProblem(node: CanvasNode): string | null {
  const { data } = node;
  if (!data.label.trim()) return TASK_MESSAGES.label;
  if (data.taskType === 'script') return Object.values(validateScript(scriptData(data)))[0] ?? null;
  if (data.taskType === 'upload') return Object.values(validateUpload(uploadData(data)))[0] ?? null;
  return TASK_MESSAGES.unconfigured;
}

/** Every node that is not ready, with why ('extract: File must end in .r, .py, or .rmd'). */
export function designProblems(nodes: readonly CanvasNode[]): string[] {
  return nodes.flatMap((n) => {
    const why = nodeProblem(n);
    return why ? [`${n.data.label || n.id}: ${why}`] : [];
  });
}
