import { Button, Center, Code, Stack, Text, Title } from '@mantine/core';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/** Shown when a screen fails to load or render (for example a stale chunk after an upgrade). */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : String(error);
  return (
    <Center mih="60vh" p="md">
      <Stack align="center" maw={480} gap="sm">
        <Title order={2}>Something went wrong</Title>
        <Text c="dimmed" ta="center">
          This page could not be shown. Reloading usually helps, for example after the console was upgraded.
        </Text>
        <Code>{detail}</Code>
        <Button onClick={() => window.location.reload()}>Reload</Button>
      </Stack>
    </Center>
  );
}
