import { Anchor, Box, Breadcrumbs, Group, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

export type Crumb = { label: string; href?: string };

/**
 * A page's title and its breadcrumb: the console's one way back (the crumbs before the last are
 * links; the last is this page).
 */
export function PageHeader({ title, crumbs, actions }: { title: string; crumbs?: Crumb[]; actions?: ReactNode }) {
  return (
    <Stack gap={6} mb="md">
      {crumbs && crumbs.length > 0 && (
        <Box component="nav" aria-label="Breadcrumb">
          <Breadcrumbs>
            {crumbs.map((c) =>
              c.href ? (
                <Anchor key={c.label} component={Link} to={c.href} size="sm">
                  {c.label}
                </Anchor>
              ) : (
                <span key={c.label} aria-current="page">
                  {c.label}
                </span>
              ),
            )}
          </Breadcrumbs>
        </Box>
      )}
      <Group justify="space-between" align="center">
        <Title order={2}>{title}</Title>
        {actions && <Group gap="sm">{actions}</Group>}
      </Group>
    </Stack>
  );
}
