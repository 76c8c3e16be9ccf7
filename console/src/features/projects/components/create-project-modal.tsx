import { Modal, SegmentedControl, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';

import { ModalActions } from '@/components/ui/modal-actions';
import { PROJECT_LANGUAGES } from '@/config/constants';
import { paths } from '@/config/paths';
import { useCreateProject } from '@/features/projects/api/create-project';
import { useDockerImages } from '@/features/projects/api/get-docker-images';
import { SizeSelect } from '@/components/ui/size-select';
import { PROJECT_MESSAGES } from '@/features/projects/utils/messages';
import { projectNameError } from '@/features/projects/utils/names';
import type { DockerImage, Language } from '@/lib/api/types';
import { notify } from '@/lib/notify';

/** The images offered for a language: those made for it, else all of them. */
export function imagesFor(images: readonly DockerImage[], language: Language): DockerImage[] {
  const matching = images.filter((i) => i.language.toLowerCase() === language);
  return matching.length > 0 ? matching : [...images];
}

/** The language control of the create and import forms. */
export function LanguageField({ value, onChange }: { value: Language; onChange: (v: Language) => void }) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id="project-language">
        Language
      </Text>
      <SegmentedControl
        aria-labelledby="project-language"
        value={value}
        onChange={(v) => onChange(v as Language)}
        data={PROJECT_LANGUAGES.map((l) => ({ value: l.value, label: l.label }))}
      />
    </Stack>
  );
}

/**
 * 'create project' (spec 001 §2): name (spec 001 §5's rule), description, language Python or R
 * and an image and a size from the administrator's lists. Ludis hosts the new repository, so no git token is
 * needed. Opens the new project's workspace.
 */
export function CreateProjectModal({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const images = useDockerImages();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [language, setLanguage] = useState<Language>('python');
  const [imageId, setImageId] = useState<string | null>(null);
  const [sizeId, setSizeId] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const create = useCreateProject({
    onSuccess: (r) => {
      notify.success(PROJECT_MESSAGES.created);
      onClose();
      navigate(paths.project.getHref(r.project.id));
    },
  });

  const offered = imagesFor(images.data?.dockerImages ?? [], language);
  // The chosen image while it fits the language, else the first that does.
  const image = offered.find((i) => i.id === imageId) ?? offered[0] ?? null;

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const error = projectNameError(name);
    setNameError(error);
    if (error) return;
    create.mutate({ name: name.trim(), description: description.trim(), language, ...(image ? { image_id: image.id } : {}), ...(sizeId ? { size_id: sizeId } : {}) });
  }

  return (
    <Modal opened onClose={onClose} title="Create project" size="lg" centered>
      <form noValidate onSubmit={submit}>
        <Stack>
          <TextInput
            label="Name"
            required
            data-autofocus
            value={name}
            error={nameError}
            onChange={(e) => {
              setName(e.currentTarget.value);
              setNameError(null);
            }}
          />
          <Textarea label="Description" autosize minRows={2} maxRows={5} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
          <LanguageField value={language} onChange={setLanguage} />
          <Select
            label="Image"
            description="The container image the project runs in; you can change it later."
            placeholder={images.isPending ? 'Loading images…' : 'No images available'}
            data={offered.map((i) => ({ value: i.id, label: i.purpose ? `${i.name} (${i.purpose})` : i.name }))}
            value={image?.id ?? null}
            onChange={setImageId}
            allowDeselect={false}
            error={images.isError ? images.error.message : undefined}
          />
          <SizeSelect
            for="project"
            label="Size"
            description="The CPU, memory and disk its runs get; you can change it later."
            value={sizeId}
            onChange={setSizeId}
          />
          <ModalActions error={create.error?.message} submitLabel="Create" loading={create.isPending} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
