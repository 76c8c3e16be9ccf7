import { Center, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The centred card the sign-in pages share. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  return (
    <Center mih="100vh" bg="gray.0" p="md">
      <Paper withBorder shadow="sm" p="xl" radius="md" w={400} maw="100%" data-testid="auth-card">
        <Stack gap="lg">
          <Stack gap={4} align="center">
            <img src="/favicon.svg" alt="Ludis" width={40} height={40} />
            <Title order={2}>{title}</Title>
            {subtitle && (
              <Text c="dimmed" size="sm" ta="center">
                {subtitle}
              </Text>
            )}
          </Stack>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
