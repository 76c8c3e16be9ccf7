import { Alert, Button, Modal, PasswordInput, SegmentedControl, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';

import { useEnable2fa } from '@/features/auth/api/enable-2fa';
import { TwoFactorCodeInput, validateTwoFactorCode } from '@/features/auth/components/two-factor-code-input';
import { getSession, setSession } from '@/lib/auth';
import { notify } from '@/lib/notify';

export const PASSWORD_REQUIRED = 'Please enter your password';

type Proof = 'password' | 'code';

type Props = {
  opened: boolean;
  uid: string;
  onClose: () => void;
  onDisabled: () => void;
};

/**
 * Switching two-factor authentication off: the API asks for proof that it is the user, so the
 * modal takes their current password or a current code from their authenticator app.
 */
export function TwoFactorDisableModal({ opened, uid, onClose, onDisabled }: Props) {
  // The form lives only while the dialog is open, so every opening starts blank.
  return (
    <Modal opened={opened} onClose={onClose} title="Disable two-factor authentication" centered>
      {opened && <DisableForm uid={uid} onDisabled={onDisabled} />}
    </Modal>
  );
}

function DisableForm({ uid, onDisabled }: Pick<Props, 'uid' | 'onDisabled'>) {
  const [proof, setProof] = useState<Proof>('password');
  const passwordForm = useForm({
    initialValues: { password: '' },
    validate: { password: (v) => (v ? null : PASSWORD_REQUIRED) },
  });
  const codeForm = useForm({ initialValues: { code: '' }, validate: { code: validateTwoFactorCode } });
  const disable = useEnable2fa({
    silent: true,
    onSuccess: () => {
      const s = getSession();
      if (s.user) setSession({ user: { ...s.user, enabled_2fa: false, confirmed_2fa: false } });
      notify.success('2FA Status Updated Successfully!');
      onDisabled();
    },
  });

  const submit =
    proof === 'password'
      ? passwordForm.onSubmit(({ password }) => disable.mutate({ uid, enabled: false, password }))
      : codeForm.onSubmit(({ code }) => disable.mutate({ uid, enabled: false, code: code.trim() }));

  return (
    <form noValidate onSubmit={submit}>
      <Stack>
        <Text size="sm">Confirm it is you: enter your password, or a current code from your authenticator app.</Text>
        <SegmentedControl
          aria-label="Confirm with"
          value={proof}
          onChange={(v) => setProof(v as Proof)}
          data={[
            { value: 'password', label: 'Password' },
            { value: 'code', label: 'Authenticator code' },
          ]}
        />
        {proof === 'password' ? (
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            data-autofocus
            required
            {...passwordForm.getInputProps('password')}
          />
        ) : (
          <TwoFactorCodeInput form={codeForm} />
        )}
        {disable.isError && (
          <Alert color="red" role="alert">
            {disable.error.message}
          </Alert>
        )}
        <Button type="submit" color="red" loading={disable.isPending}>
          Disable
        </Button>
      </Stack>
    </form>
  );
}
