import { Anchor, Button, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link } from 'react-router';

import { paths } from '@/config/paths';
import { useVerify2fa } from '@/features/auth/api/verify-2fa';
import { TwoFactorCodeInput, validateTwoFactorCode } from '@/features/auth/components/two-factor-code-input';
import { clearSession, useSession } from '@/lib/auth';
import { notify } from '@/lib/notify';

export const INVALID_2FA_CODE = 'Invalid 2FA Code';

/** The verify modal's body: code input, Verify, and a Back link to /login (spec 000 §2). */
export function TwoFactorVerifyForm({ onVerified }: { onVerified: () => void }) {
  const { user } = useSession();
  const form = useForm({ initialValues: { code: '' }, validate: { code: validateTwoFactorCode } });
  const verify = useVerify2fa({
    onSuccess: (data) => {
      if (data.verified_2fa === false) {
        form.setFieldError('code', INVALID_2FA_CODE);
        return notify.error(INVALID_2FA_CODE);
      }
      notify.success('2FA Verified');
      onVerified();
    },
  });

  return (
    <form
      noValidate
      onSubmit={form.onSubmit(({ code }) =>
        verify.mutate(
          { secret: user?.secret_2fa || undefined, token: code.trim() },
          {
            onError: () => {
              form.setFieldError('code', INVALID_2FA_CODE);
              notify.error(INVALID_2FA_CODE);
            },
          },
        ),
      )}
    >
      <Stack>
        <Text size="sm" c="dimmed">
          Enter the 6-digit code from your authenticator app.
        </Text>
        <TwoFactorCodeInput form={form} />
        <Button type="submit" loading={verify.isPending}>
          Verify
        </Button>
        <Anchor component={Link} to={paths.login.getHref()} onClick={() => clearSession()} size="sm">
          Back
        </Anchor>
      </Stack>
    </form>
  );
}
