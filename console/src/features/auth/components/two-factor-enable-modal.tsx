import { ActionIcon, Alert, Button, Center, Collapse, Group, Image, List, Loader, Modal, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconChevronDown, IconChevronRight, IconEye, IconEyeOff } from '@tabler/icons-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';

import { useEnable2fa } from '@/features/auth/api/enable-2fa';
import { useVerify2fa } from '@/features/auth/api/verify-2fa';
import { TwoFactorCodeInput, validateTwoFactorCode } from '@/features/auth/components/two-factor-code-input';
import { getSession, setSession } from '@/lib/auth';
import { notify } from '@/lib/notify';

/** Spec 001 §8. */
export const VERIFICATION_FAILED = '2FA Verification Failed';

/** An image source for the QR the server sends: a data URL, an address, or raw SVG. */
export function qrSource(qr: string | null | undefined): string | null {
  if (!qr) return null;
  if (qr.startsWith('data:') || qr.startsWith('http') || qr.startsWith('/')) return qr;
  if (qr.trimStart().startsWith('<svg')) return `data:image/svg+xml;utf8,${encodeURIComponent(qr)}`;
  return `data:image/png;base64,${qr}`;
}

type Props = {
  opened: boolean;
  onClose: () => void;
  onVerified: () => void;
  /** Extra content under the form (the enable page puts a Back link here). */
  footer?: ReactNode;
  closable?: boolean;
};

/**
 * Two-factor enable modal (spec 000 §2): collapsible instructions, the secret key (masked, with
 * a show/hide eye), the QR image, a 6-digit code input and Verify.
 */
export function TwoFactorEnableModal({ opened, onClose, onVerified, footer, closable = true }: Props) {
  const [showInstructions, setShowInstructions] = useState(true);
  const [showSecret, setShowSecret] = useState(false);
  const [secret, setSecret] = useState<{ secret: string; qr: string | null } | null>(null);
  const requested = useRef(false);
  const enable = useEnable2fa({
    onSuccess: (data) => {
      const secret2fa = data.secret ?? '';
      const qr = data.secret_2fa_qr ?? null;
      setSecret({ secret: secret2fa, qr });
      const s = getSession();
      if (s.user) setSession({ user: { ...s.user, secret_2fa: secret2fa, secret_2fa_qr: qr } });
    },
  });
  const form = useForm({ initialValues: { code: '' }, validate: { code: validateTwoFactorCode } });
  const verify = useVerify2fa({
    onSuccess: (data) => {
      if (data.verified_2fa === false) {
        form.setFieldError('code', VERIFICATION_FAILED);
        return notify.error(VERIFICATION_FAILED);
      }
      const s = getSession();
      if (s.user) setSession({ user: { ...s.user, enabled_2fa: true, confirmed_2fa: true } });
      notify.success('2FA Verification Successful');
      onVerified();
    },
  });

  // Closing forgets the secret and the code (adjusted while rendering, not in an effect).
  const [wasOpened, setWasOpened] = useState(opened);
  if (opened !== wasOpened) {
    setWasOpened(opened);
    if (!opened) {
      setSecret(null);
      form.reset();
    }
  }

  const uid = getSession().user?.uid;
  useEffect(() => {
    if (opened && !requested.current && uid) {
      requested.current = true;
      enable.mutate({ uid, enabled: true });
    }
    if (!opened) requested.current = false;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, uid]);

  const qr = qrSource(secret?.qr);

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Enable two-factor authentication"
      centered
      withCloseButton={closable}
      closeOnClickOutside={closable}
      closeOnEscape={closable}
    >
      <Stack>
        <UnstyledButton onClick={() => setShowInstructions((v) => !v)} aria-expanded={showInstructions}>
          <Group gap={4}>
            {showInstructions ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
            <Text fw={600} size="sm">
              Verification instructions
            </Text>
          </Group>
        </UnstyledButton>
        <Collapse expanded={showInstructions}>
          <List size="sm" type="ordered" spacing={4}>
            <List.Item>Install an authenticator app (for example Google Authenticator, Authy or 1Password).</List.Item>
            <List.Item>Scan the QR code, or type the secret key into the app.</List.Item>
            <List.Item>Enter the 6-digit code the app shows and press Verify.</List.Item>
          </List>
        </Collapse>

        {enable.isPending && (
          <Center role="status" aria-label="Preparing your secret key">
            <Loader size="sm" />
          </Center>
        )}
        {enable.isError && (
          <Alert color="red" role="alert">
            {enable.error.message}
          </Alert>
        )}
        {secret && (
          <>
            <TextInput
              label="Secret key"
              readOnly
              value={showSecret ? secret.secret : '•'.repeat(Math.max(secret.secret.length, 16))}
              aria-label="Secret key"
              styles={{ input: { fontFamily: 'monospace' } }}
              rightSection={
                <ActionIcon
                  variant="subtle"
                  onClick={() => setShowSecret((v) => !v)}
                  aria-label={showSecret ? 'Hide secret key' : 'Show secret key'}
                >
                  {showSecret ? <IconEyeOff size={16} /> : <IconEye size={16} />}
                </ActionIcon>
              }
            />
            {qr ? (
              <Center>
                <Image src={qr} alt="QR code for your authenticator app" w={180} h={180} fit="contain" />
              </Center>
            ) : (
              <Text size="sm" c="dimmed">
                No QR image was provided: type the secret key into your app.
              </Text>
            )}
          </>
        )}

        <form
          noValidate
          onSubmit={form.onSubmit(({ code }) =>
            verify.mutate(
              { secret: secret?.secret || undefined, token: code.trim() },
              {
                onError: () => {
                  form.setFieldError('code', VERIFICATION_FAILED);
                  notify.error(VERIFICATION_FAILED);
                },
              },
            ),
          )}
        >
          <Stack>
            <TwoFactorCodeInput form={form} />
            <Button type="submit" loading={verify.isPending} disabled={!secret}>
              Verify
            </Button>
          </Stack>
        </form>
        {footer}
      </Stack>
    </Modal>
  );
}
