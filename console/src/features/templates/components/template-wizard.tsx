import { Alert, Button, Card, Group, Radio, SimpleGrid, Stack, Stepper, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';

import { paths } from '@/config/paths';
import { useCreateTemplateApp } from '@/features/templates/api/template-data';
import type { DatasetPicker } from '@/features/templates/components/slots';
import { TEMPLATES, type TemplateKind, WIZARD_MESSAGES } from '@/features/templates/utils/constants';
import { notify } from '@/lib/notify';

type Draft = { template: TemplateKind | null; datasetId: string | null; datasetName: string; name: string; description: string };

const EMPTY: Draft = { template: null, datasetId: null, datasetName: '', name: '', description: '' };
const LAST = 3;

/** What keeps step `step` from being done, or null. */
function problem(step: number, d: Draft): string | null {
  if (step === 0 && !d.template) return WIZARD_MESSAGES.template;
  if (step === 1 && !d.datasetId) return WIZARD_MESSAGES.dataset;
  if (step === 2 && !d.name.trim()) return WIZARD_MESSAGES.name;
  return null;
}

/**
 * /add-template (spec 001 §2, §4): four steps — template, dataset, name and description, review.
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
  const blocked = problem(step, draft);
  // A marker may jump back anywhere, and forward only over satisfied steps.
  const reachable = (target: number) => [0, 1, 2].slice(0, target).every((s) => problem(s, draft) === null);

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
      { name: draft.name.trim(), description: draft.description.trim(), template: draft.template!, dataset_ids: [draft.datasetId!] },
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
            {datasetPicker({ value: draft.datasetId, onChange: (id, name) => set({ datasetId: id, datasetName: name }) })}
            <Text size="sm" c="dimmed">
              The app reads the first .csv file at the top of the dataset (or, without one, its first .xlsx or .xls workbook).
            </Text>
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
                <b>Name:</b> {draft.name.trim()}
              </Text>
              {draft.description.trim() && (
                <Text>
                  <b>Description:</b> {draft.description.trim()}
                </Text>
              )}
            </Stack>
          </Card>
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
