import { Anchor, AppShell, Badge, Box, Button, Group, Menu, Modal, NavLink, ScrollArea, Stack, Text, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconBook,
  IconChartBar,
  IconCurrencyEthereum,
  IconDatabase,
  IconFolders,
  IconHeadset,
  IconHome,
  IconLogout,
  IconMenu2,
  IconNotebook,
  IconRoute,
  IconSettings,
  IconShieldLock,
  IconUserCircle,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';

import { type NavSection, showsAdmin, visibleSections } from '@/components/layout/nav-items';
import { NOTEBOOKS_DEPRECATION } from '@/config/constants';
import { paths } from '@/config/paths';
import type { Flighting, User } from '@/lib/api/types';

const ICONS: Record<NavSection['key'], ReactNode> = {
  home: <IconHome size={18} />,
  insights: <IconChartBar size={18} />,
  projects: <IconFolders size={18} />,
  workflows: <IconRoute size={18} />,
  datasets: <IconDatabase size={18} />,
  notebooks: <IconNotebook size={18} />,
  web3: <IconCurrencyEthereum size={18} />,
};

export type DashboardLayoutProps = {
  user: User | null;
  flightings: readonly Flighting[] | undefined;
  supportEmail: string;
  documentationUrl: string;
  onLogout: () => void;
  children: ReactNode;
};

function DeprecatedTag() {
  return (
    <Tooltip label={NOTEBOOKS_DEPRECATION} multiline w={240} withArrow>
      <Badge size="xs" color="orange" variant="light" tt="none" px={6} title={NOTEBOOKS_DEPRECATION} aria-label={NOTEBOOKS_DEPRECATION}>
        Deprecated
      </Badge>
    </Tooltip>
  );
}

function isActive(pathname: string, href: string) {
  if (href === paths.home.getHref()) return pathname === '/' || pathname === href;
  return pathname === href || pathname.startsWith(`${href}/`);
}

/**
 * The shared layout (spec 000 §2): a left sidebar on wide screens, a compact dropdown on small
 * ones. Sections are filtered by flighting and role; Support opens a dialog with the e-mail.
 */
export function DashboardLayout({ user, flightings, supportEmail, documentationUrl, onLogout, children }: DashboardLayoutProps) {
  const { pathname } = useLocation();
  const [supportOpen, support] = useDisclosure(false);
  const sections = visibleSections(flightings, user);
  const admin = showsAdmin(user);

  return (
    <AppShell navbar={{ width: 256, breakpoint: 'sm', collapsed: { mobile: true } }} header={{ height: { base: 56, sm: 0 } }} padding="lg">
      <AppShell.Header hiddenFrom="sm" px="md">
        <Group h="100%" justify="space-between">
          <Text fw={700} c="inherit" td="none" component={Link} to={paths.home.getHref()}>
            Ludis
          </Text>
          <Menu position="bottom-end" width={240}>
            <Menu.Target>
              <Button variant="subtle" leftSection={<IconMenu2 size={18} />} aria-label="Open navigation">
                Menu
              </Button>
            </Menu.Target>
            <Menu.Dropdown aria-label="Compact navigation">
              {sections.map((s) => (
                <Menu.Item key={s.key} component={Link} to={s.href} leftSection={ICONS[s.key]} rightSection={s.deprecated ? <DeprecatedTag /> : null}>
                  {s.label}
                </Menu.Item>
              ))}
              <Menu.Divider />
              <Menu.Item leftSection={<IconHeadset size={18} />} onClick={support.open}>
                Support
              </Menu.Item>
              <Menu.Item component="a" href={documentationUrl} target="_blank" rel="noreferrer" leftSection={<IconBook size={18} />}>
                Documentation
              </Menu.Item>
              {admin && (
                <Menu.Item component={Link} to={paths.adminPortal.getHref()} leftSection={<IconShieldLock size={18} />}>
                  Admin
                </Menu.Item>
              )}
              <Menu.Item component={Link} to={paths.profile.getHref()} leftSection={<IconUserCircle size={18} />}>
                Account
              </Menu.Item>
              <Menu.Item color="red" leftSection={<IconLogout size={18} />} onClick={onLogout}>
                Logout
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="sm" aria-label="Main navigation">
        <AppShell.Section>
          <Group gap="xs" px="sm" py="md">
            <img src="/favicon.svg" alt="" width={26} height={26} />
            <Text fw={700} size="lg">
              Ludis
            </Text>
          </Group>
        </AppShell.Section>
        <AppShell.Section grow component={ScrollArea}>
          <Stack gap={2}>
            {sections.map((s) => (
              <NavLink
                key={s.key}
                component={Link}
                to={s.href}
                label={s.label}
                leftSection={ICONS[s.key]}
                rightSection={s.deprecated ? <DeprecatedTag /> : undefined}
                active={isActive(pathname, s.href)}
              />
            ))}
          </Stack>
        </AppShell.Section>
        <AppShell.Section>
          <Stack gap={2}>
            <NavLink label="Support" leftSection={<IconHeadset size={18} />} onClick={support.open} component="button" />
            <NavLink label="Documentation" leftSection={<IconBook size={18} />} component="a" href={documentationUrl} target="_blank" rel="noreferrer" />
            {admin && (
              <NavLink
                label="Admin"
                leftSection={<IconSettings size={18} />}
                component={Link}
                to={paths.adminPortal.getHref()}
                active={isActive(pathname, paths.adminPortal.getHref())}
              />
            )}
            <NavLink
              label="Account"
              leftSection={<IconUserCircle size={18} />}
              component={Link}
              to={paths.profile.getHref()}
              active={isActive(pathname, paths.profile.getHref())}
            />
            <NavLink label="Logout" leftSection={<IconLogout size={18} />} onClick={onLogout} component="button" c="red" />
          </Stack>
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main>
        <Box maw={1200} mx="auto">
          {children}
        </Box>
      </AppShell.Main>

      <Modal opened={supportOpen} onClose={support.close} title="Support" centered>
        <Text>
          For support, please email: <Anchor href={`mailto:${supportEmail}`}>{supportEmail}</Anchor>
        </Text>
      </Modal>
    </AppShell>
  );
}
