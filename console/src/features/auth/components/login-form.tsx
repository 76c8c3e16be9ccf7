import { Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';

import { type LoginInput, useLogin } from '@/features/auth/api/login';
import type { LoginResponse } from '@/lib/api/types';

/** Sign In: e-mail, password and the Sign In button (spec 000 §2; no client-side checks). */
export function LoginForm({ onSuccess }: { onSuccess: (data: LoginResponse) => void }) {
  const form = useForm<LoginInput>({ initialValues: { email: '', password: '' } });
  const login = useLogin({ onSuccess });

  return (
    <form onSubmit={form.onSubmit((values) => login.mutate(values))} noValidate>
      <Stack>
        <TextInput label="Email" type="email" autoComplete="username" required {...form.getInputProps('email')} />
        <PasswordInput label="Password" autoComplete="current-password" required {...form.getInputProps('password')} />
        <Button type="submit" loading={login.isPending} fullWidth>
          Sign In
        </Button>
      </Stack>
    </form>
  );
}
