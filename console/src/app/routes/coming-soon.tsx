import { Button, Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconTools } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';

import { paths } from '@/config/paths';

const TITLES: Record<string, string> = {
  [paths.notebooks.path]: 'Notebooks',
  [paths.workflows.path]: 'Workflows',
  [paths.collections.path]: 'Collections',
};

/** Sections whose screens arrive with later issues. */
export function ComingSoonRoute() {
  const { pathname } = useLocation();
  const title = TITLES[pathname] ?? 'This section';
  return (
    <Center mih="50vh">
      <Stack align="center" gap="sm" maw={420}>
        <ThemeIcon size={56} radius="xl" variant="light">
          <IconTools size={30} />
        </ThemeIcon>
        <Title order={2}>{title}</Title>
        <Text c="dimmed" ta="center">
          This part of the console is not available yet. It will appear here in a coming release.
        </Text>
        <Button component={Link} to={paths.home.getHref()} variant="light">
          Back to Home
        </Button>
      </Stack>
    </Center>
  );
}
