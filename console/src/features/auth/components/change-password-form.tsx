import { Button, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';

import { MIN_PASSWORD_LENGTH } from '@/config/constants';
import { type ChangePasswordInput, useChangePassword } from '@/features/auth/api/change-password';
import { fieldErrors } from '@/lib/field-errors';

export const PASSWORD_TOO_SHORT = 'Password must be at least 6 characters long';
export const FIELD_REQUIRED = 'This field is required';
export const PASSWORDS_DIFFER = 'Passwords do not match';

export function validateChangePassword(values: ChangePasswordInput) {
  return {
    currentPassword: values.currentPassword ? null : FIELD_REQUIRED,
    newPassword: !values.newPassword
      ? FIELD_REQUIRED
      : values.newPassword.length < MIN_PASSWORD_LENGTH
        ? PASSWORD_TOO_SHORT
        : null,
    confirmPassword: !values.confirmPassword
      ? FIELD_REQUIRED
      : values.confirmPassword !== values.newPassword
        ? PASSWORDS_DIFFER
        : null,
  };
}

/**
 * Change password (spec 000 §2, §5): current, new and confirm, Submit (the route's breadcrumb is the
 * Back link to profile settings); success shows the 'Password Updated' dialog, then returns to profile settings.
 */
export function ChangePasswordForm({ onDone }: { onDone: () => void }) {
  const [updated, setUpdated] = useState(false);
  const form = useForm<ChangePasswordInput>({
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    validate: validateChangePassword,
  });
  const change = useChangePassword({
    onSuccess: () => setUpdated(true),
    // The server's refusal marks its field too (the toast says it as well).
    onError: (e) =>
      form.setErrors(
        fieldErrors(e, {
          wrong_password: 'currentPassword',
          password_too_short: 'newPassword',
          password_mismatch: 'confirmPassword',
        }),
      ),
  });

  return (
    <>
      <form noValidate onSubmit={form.onSubmit((values) => change.mutate(values))}>
        <Stack>
          <PasswordInput label="Current password" autoComplete="current-password" required {...form.getInputProps('currentPassword')} />
          <PasswordInput label="New password" autoComplete="new-password" required {...form.getInputProps('newPassword')} />
          <PasswordInput label="Confirm password" autoComplete="new-password" required {...form.getInputProps('confirmPassword')} />
          <Button type="submit" loading={change.isPending}>
            Submit
          </Button>
        </Stack>
      </form>
      <Modal opened={updated} onClose={onDone} title="Password Updated" centered>
        <Stack>
          <Text>Your password has been changed.</Text>
          <Button onClick={onDone}>OK</Button>
        </Stack>
      </Modal>
    </>
  );
}
