import { TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';

import { TWO_FACTOR_CODE_LENGTH } from '@/config/constants';

export const CODE_REQUIRED = 'Please enter the 6-digit code';
export const CODE_FORMAT = 'The code must be 6 digits';

/** Validation of a two-factor code: required, 6 digits expected (spec 000 §5). */
export function validateTwoFactorCode(value: string): string | null {
  const v = value.trim();
  if (!v) return CODE_REQUIRED;
  if (!new RegExp(`^\\d{${TWO_FACTOR_CODE_LENGTH}}$`).test(v)) return CODE_FORMAT;
  return null;
}

export function TwoFactorCodeInput({ form }: { form: UseFormReturnType<{ code: string }> }) {
  return (
    <TextInput
      label="Verification code"
      placeholder="123456"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={TWO_FACTOR_CODE_LENGTH}
      data-autofocus
      required
      {...form.getInputProps('code')}
    />
  );
}
