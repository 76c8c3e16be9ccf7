import { Button, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';

import { SizeSelect } from '@/components/ui/size-select';
import type { TaskType } from '@/lib/api/types';
import type { DesignerPickers } from '@/features/workflows/components/slots';
import { type CanvasNode, withTaskType } from '@/features/workflows/utils/design';
import { hasExtension, isInstallScript, isScriptFile, scriptData, uploadData, validateScript, validateUpload, type ScriptTaskData, type UploadTaskData } from '@/features/workflows/utils/tasks';

type Props = {
  node: CanvasNode;
  projectId: string;
  pickers: DesignerPickers;
  readOnly: boolean;
  onChange: (node: CanvasNode) => void;
  onDelete: () => void;
};

function ScriptFields({ node, projectId, pickers, readOnly, onChange }: Omit<Props, 'onDelete'>) {
  const d = scriptData(node.data);
  const errors = validateScript(d);
  const set = (patch: ScriptTaskData) =>
    onChange({ ...node, data: { ...node.data, taskData: { fileName: '', image: '', ...d, ...patch } } });
  return (
    <>
      {pickers.file({
        projectId,
        label: 'Script',
        description: 'A project file ending in .r, .py or .rmd',
        value: d.fileName || null,
        onChange: (v) => set({ fileName: v ?? '' }),
        accept: isScriptFile,
        error: d.fileName ? errors.fileName : undefined,
        required: true,
        disabled: readOnly,
      })}
      {pickers.image({ value: d.image || null, onChange: (v) => set({ image: v ?? '' }), disabled: readOnly })}
      <SizeSelect
        for="task"
        label="Size"
        description="The CPU, memory and disk the task's pod gets"
        value={d.size}
        onChange={(v) => set({ size: v })}
        disabled={readOnly}
      />
      {pickers.file({
        projectId,
        label: 'Install script',
        description: 'Optional: a project file ending in .sh, run before the script',
        value: d.installScript || null,
        onChange: (v) => set({ installScript: v }),
        accept: isInstallScript,
        error: errors.installScript,
        disabled: readOnly,
      })}
    </>
  );
}

function UploadFields({ node, projectId, pickers, readOnly, onChange }: Omit<Props, 'onDelete'>) {
  const d = uploadData(node.data);
  const errors = validateUpload(d);
  const set = (patch: UploadTaskData) =>
    onChange({
      ...node,
      data: { ...node.data, taskData: { fileName: '', datasetID: '', datasetName: '', datasetDestination: '', datasetPath: '', ...d, ...patch } },
    });
  return (
    <>
      {pickers.file({
        projectId,
        label: 'File to upload',
        description: 'A project file with an extension',
        value: d.fileName || null,
        onChange: (v) => set({ fileName: v ?? '' }),
        accept: hasExtension,
        error: d.fileName ? errors.fileName : undefined,
        required: true,
        disabled: readOnly,
      })}
      {pickers.dataset({
        value: d.datasetID ? { id: d.datasetID, name: d.datasetName ?? '' } : null,
        onChange: (ds) => set({ datasetID: ds?.id ?? '', datasetName: ds?.name ?? '' }),
        disabled: readOnly,
      })}
      <TextInput
        label="Destination folder"
        description="A folder of the dataset ('' is its root), e.g. results/"
        value={d.datasetPath ?? ''}
        readOnly={readOnly}
        onChange={(e) => {
          const path = e.currentTarget.value.trim();
          set({ datasetPath: path, datasetDestination: `${d.datasetName ?? ''}/${path}` });
        }}
      />
    </>
  );
}

/** The side panel (spec 001 §2, §4): the selected node becomes a script or an upload task here. */
export function NodePanel(props: Props) {
  const { node, readOnly, onChange, onDelete } = props;
  return (
    <Stack gap="sm" data-testid="node-panel">
      <Title order={5}>Task</Title>
      <TextInput
        label="Task name"
        value={node.data.label}
        readOnly={readOnly}
        onChange={(e) => onChange({ ...node, data: { ...node.data, label: e.currentTarget.value } })}
      />
      <SegmentedControl
        aria-label="Task type"
        disabled={readOnly}
        value={node.data.taskType ?? 'empty'}
        onChange={(v) => onChange(withTaskType(node, v === 'empty' ? null : (v as TaskType)))}
        data={[
          { value: 'empty', label: 'Empty' },
          { value: 'script', label: 'Script' },
          { value: 'upload', label: 'Upload' },
        ]}
      />
      {node.data.taskType === 'script' && <ScriptFields {...props} />}
      {node.data.taskType === 'upload' && <UploadFields {...props} />}
      {node.data.taskType === null && (
        <Text size="sm" c="dimmed">
          Choose Script to run a project file, or Upload to copy a project file into a dataset.
        </Text>
      )}
      {!readOnly && (
        <Button variant="light" color="red" leftSection={<IconTrash size={14} />} onClick={onDelete}>
          Delete task
        </Button>
      )}
    </Stack>
  );
}
