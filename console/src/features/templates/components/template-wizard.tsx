import { Alert, Button, Card, Group, Radio, SimpleGrid, Stack, Stepper, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';

import { paths } from '@/config/paths';
import { useCreateTemplateApp, useTemplateDataFiles } from '@/features/templates/api/template-data';
import type { DatasetPicker } from '@/features/templates/components/slots';
import { FILE_MESSAGE, FileRowsNote, TemplateFileField } from '@/features/templates/components/template-file-field';
import { TEMPLATES, type TemplateKind, WIZARD_MESSAGES } from '@/features/templates/utils/constants';
import { notify } from '@/lib/notify';

/** `file` is the data file chosen in the list; null: the dataset's default (its first .csv). */
type Draft = { template: TemplateKind | null; datasetId: string | null; datasetName: string; file: string | null; name: string; description: string };

const EMPTY: Draft = { template: null, datasetId: null, datasetName: '', file: null, name: '', description: '' };
const LAST = 3;

/** What keeps step `step` from being done, or null; `file` is the data file the app would read. */
function problem(step: number, d: Draft, file: string | null): string | null {
  if (step === 0 && !d.template) return WIZARD_MESSAGES.template;
  if (step === 1 && !d.datasetId) return WIZARD_MESSAGES.dataset;
  if (step === 1 && !file) return FILE_MESSAGE;
  if (step === 2 && !d.name.trim()) return WIZARD_MESSAGES.name;
  return null;
}

/**
 * /add-template (spec 001 §2, §4): four steps — template, dataset and its data file, name and
 * description, review. The data file is listed with its size, the first .csv chosen at first; the
 * review names it, and a file with more rows than template apps read is warned of before Create.
 * Next is enabled only when the step is satisfied; the last step's button reads 'Create'; Back on
 * the first step resets and returns to /insights; a step marker jumps to that step (later ones
 * only once the steps before them are satisfied).
 */
export function TemplateWizard({ datasetPicker }: { datasetPicker: DatasetPicker }) {
  const navigate = useNavigate();
  const [step, setStep] = useState(0);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [failure, setFailure] = useState<string | null>(null);
  const create = useCreateTemplateApp({
    onSuccess: (id) => {
      notify.success('App Created Successfully');
      navigate(paths.app.getHref(id));
    },
  });
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const files = useTemplateDataFiles(draft.datasetId);
  const file = draft.file ?? files.data?.default_file ?? null;
  const fileSize = files.data?.files.find((f) => f.file === file)?.size_text;
  const blocked = problem(step, draft, file);
  // A marker may jump back anywhere, and forward only over satisfied steps.
  const reachable = (target: number) => [0, 1, 2].slice(0, target).every((s) => problem(s, draft, file) === null);

  function back() {
    if (step === 0) {
      setDraft(EMPTY);
      navigate(paths.insights.getHref());
      return;
    }
    setStep(step - 1);
  }

  function next() {
    if (blocked) return;
    if (step < LAST) {
      setStep(step + 1);
      return;
    }
    setFailure(null);
    create.mutate(
      { name: draft.name.trim(), description: draft.description.trim(), template: draft.template!, dataset_ids: [draft.datasetId!], file },
      { onError: (e) => setFailure(e instanceof Error ? e.message : String(e)) },
    );
  }

  const chosen = TEMPLATES.find((t) => t.value === draft.template);
  return (
    <Stack maw={880}>
      <Title order={2}>New app from a template</Title>
      <Stepper active={step} onStepClick={(s) => reachable(s) && setStep(s)} allowNextStepsSelect={false}>
        <Stepper.Step label="Template" description="What the app does">
          <Radio.Group value={draft.template} onChange={(v) => set({ template: v as TemplateKind })} aria-label="Template">
            <SimpleGrid cols={{ base: 1, sm: 3 }} mt="md">
              {TEMPLATES.map((t) => (
                <Card key={t.value} withBorder padding="md" component="label" style={{ cursor: 'pointer' }}>
                  <Group gap="xs" wrap="nowrap" align="flex-start">
                    <Radio value={t.value} aria-label={t.title} />
                    <Stack gap={4}>
                      <Text fw={600}>{t.title}</Text>
                      <Text size="sm" c="dimmed">
                        {t.description}
                      </Text>
                    </Stack>
                  </Group>
                </Card>
              ))}
            </SimpleGrid>
          </Radio.Group>
        </Stepper.Step>
        <Stepper.Step label="Dataset" description="The data it reads">
          <Stack mt="md" maw={480}>
            {datasetPicker({ value: draft.datasetId, onChange: (id, name) => set({ datasetId: id, datasetName: name, file: null }) })}
            {draft.datasetId && <TemplateFileField datasetId={draft.datasetId} files={files} value={file} onChange={(f) => set({ file: f })} />}
          </Stack>
        </Stepper.Step>
        <Stepper.Step label="Name" description="What people see">
          <Stack mt="md" maw={480}>
            <TextInput label="App name" required value={draft.name} onChange={(e) => set({ name: e.currentTarget.value })} />
            <Textarea label="Description" autosize minRows={2} value={draft.description} onChange={(e) => set({ description: e.currentTarget.value })} />
          </Stack>
        </Stepper.Step>
        <Stepper.Step label="Review" description="Create the app">
          <Card withBorder mt="md" maw={480} aria-label="Review">
            <Stack gap={6}>
              <Text>
                <b>Template:</b> {chosen?.title}
              </Text>
              <Text>
                <b>Dataset:</b> {draft.datasetName}
              </Text>
              <Text>
                <b>File:</b> {file}
                {fileSize && ` (${fileSize})`}
              </Text>
              <Text>
                <b>Name:</b> {draft.name.trim()}
              </Text>
              {draft.description.trim() && (
                <Text>
                  <b>Description:</b> {draft.description.trim()}
                </Text>
              )}
            </Stack>
          </Card>
          {draft.datasetId && file && (
            <Stack mt="sm" maw={480}>
              <FileRowsNote datasetId={draft.datasetId} file={file} />
            </Stack>
          )}
        </Stepper.Step>
      </Stepper>
      {failure && (
        <Alert color="red" variant="light" role="alert" title="The app was not created">
          {failure}
        </Alert>
      )}
      <Group justify="space-between">
        <Button variant="default" onClick={back}>
          Back
        </Button>
        <Group gap="sm">
          {blocked && (
            <Text size="sm" c="dimmed" role="status">
              {blocked}
            </Text>
          )}
          <Button onClick={next} disabled={blocked !== null} loading={create.isPending}>
            {step === LAST ? 'Create' : 'Next'}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
