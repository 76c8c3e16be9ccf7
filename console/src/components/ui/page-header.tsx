import { Anchor, Breadcrumbs, Group, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

export type Crumb = { label: string; href?: string };

export function PageHeader({ title, crumbs, actions }: { title: string; crumbs?: Crumb[]; actions?: ReactNode }) {
  return (
    <Stack gap={6} mb="md">
      {crumbs && crumbs.length > 0 && (
        <Breadcrumbs aria-label="Breadcrumb">
          {crumbs.map((c) =>
            c.href ? (
              <Anchor key={c.label} component={Link} to={c.href} size="sm">
                {c.label}
              </Anchor>
            ) : (
              <span key={c.label}>{c.label}</span>
            ),
          )}
        </Breadcrumbs>
      )}
      <Group justify="space-between" align="center">
        <Title order={2}>{title}</Title>
        {actions && <Group gap="sm">{actions}</Group>}
      </Group>
    </Stack>
  );
}
