import { Anchor, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link } from 'react-router';

import { paths } from '@/config/paths';
import { type LoginInput, useLogin } from '@/features/auth/api/login';
import type { LoginResponse } from '@/lib/api/types';
import { fieldErrors } from '@/lib/field-errors';

/**
 * Sign In: e-mail, password, a 'Forgot password?' link (the public /forgot_password page) and the
 * Sign In button (spec 000 §2; no client-side checks).
 */
export function LoginForm({ onSuccess }: { onSuccess: (data: LoginResponse) => void }) {
  const form = useForm<LoginInput>({ initialValues: { email: '', password: '' } });
  const login = useLogin({
    onSuccess,
    // The server's refusal marks the fields too: the empty ones, or the password.
    onError: (e) => {
      const { email, password } = form.getValues();
      const empty = [...(email.trim() ? [] : ['email' as const]), ...(password ? [] : ['password' as const])];
      form.setErrors(fieldErrors(e, { credentials_required: empty, invalid_credentials: 'password' }));
    },
  });

  return (
    <form onSubmit={form.onSubmit((values) => login.mutate(values))} noValidate>
      <Stack>
        <TextInput label="Email" type="email" autoComplete="username" required {...form.getInputProps('email')} />
        <PasswordInput label="Password" autoComplete="current-password" required {...form.getInputProps('password')} />
        <Group justify="flex-end" mt={-8}>
          <Anchor component={Link} to={paths.forgotPassword.getHref()} size="sm">
            Forgot password?
          </Anchor>
        </Group>
        <Button type="submit" loading={login.isPending} fullWidth>
          Sign In
        </Button>
      </Stack>
    </form>
  );
}
