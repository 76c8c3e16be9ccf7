import {
  ActionIcon,
  Anchor,
  Badge,
  Box,
  Button,
  Card,
  Center,
  Group,
  Image,
  Menu,
  Modal,
  Paper,
  Stack,
  Switch,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import {
  IconBuilding,
  IconDots,
  IconEye,
  IconFileTypePdf,
  IconPencil,
  IconPin,
  IconPinnedFilled,
  IconPresentationAnalytics,
  IconRefresh,
  IconShare,
  IconTrash,
  IconX,
} from '@tabler/icons-react';
import { type MouseEvent, type ReactNode, useState } from 'react';
import { Link, useNavigate } from 'react-router';

import { INSIGHT_DESCRIPTION_MAX, INSIGHT_NAME_MAX } from '@/config/constants';
import { paths } from '@/config/paths';
import { useDeleteInsight } from '@/features/insights/api/delete-insight';
import { usePinInsight } from '@/features/insights/api/pin-insight';
import { useRedeployInsight } from '@/features/insights/api/redeploy-insight';
import { useRunInsight } from '@/features/insights/api/run-insight';
import type { InsightView } from '@/lib/api/types';
import { EditInsightModal } from '@/features/insights/components/edit-insight-modal';
import { canEdit, canRun, INSIGHT_TYPE_LABELS, isRunning, ownerName } from '@/features/insights/components/insight-actions';
import { ReportPreviewModal } from '@/features/insights/components/report-preview-modal';
import { isSuperadmin, useSession } from '@/lib/auth';
import { notify } from '@/lib/notify';
import { truncate, viewCountLabel } from '@/lib/text';

export const DELETE_CONFIRM = 'Are you sure you want to delete this item?';
export const REMOVE_CONFIRM = 'Are you sure you want remove this from the insights page?';
export const APP_DELETED = 'App Deleted!';

const STATUS_COLORS: Record<string, string> = {
  running: 'green',
  starting: 'yellow',
  stopped: 'gray',
  idle: 'indigo',
  external: 'blue',
  rendering: 'yellow',
  rendered: 'green',
  uploaded: 'teal',
  failed: 'red',
};

/** The status, with what the cluster says of it (why it failed, what it waits for) on hover. */
export function StatusBadge({ status, message }: { status: string; message?: string | null }) {
  const badge = (
    <Badge size="xs" variant="light" color={STATUS_COLORS[status] ?? 'gray'} aria-label={message ? `${status}: ${message}` : status}>
      {status}
    </Badge>
  );
  return message ? (
    <Tooltip label={message} multiline maw={360}>
      {badge}
    </Tooltip>
  ) : (
    badge
  );
}

/** Pin and unpin (spec 000 §4): flipped at once, flipped back when the server refuses. */
export function PinToggle({ insight }: { insight: InsightView }) {
  const { user } = useSession();
  const pin = usePinInsight();
  const [pinned, setPinned] = useState(insight.pinned);
  // The server's value wins whenever it changes (adjusted while rendering, not in an effect).
  const [serverPinned, setServerPinned] = useState(insight.pinned);
  if (insight.pinned !== serverPinned) {
    setServerPinned(insight.pinned);
    setPinned(insight.pinned);
  }
  const label = pinned ? `Unpin ${insight.name}` : `Pin ${insight.name}`;
  function toggle() {
    const next = !pinned;
    setPinned(next);
    pin.mutate({ app_id: insight.id, user_id: user?.uid, pinned: next }, { onError: () => setPinned(!next) });
  }
  return (
    <Tooltip label={pinned ? 'Unpin' : 'Pin'}>
      <ActionIcon variant="subtle" color={pinned ? 'indigo' : 'gray'} aria-label={label} aria-pressed={pinned} onClick={toggle}>
        {pinned ? <IconPinnedFilled size={18} /> : <IconPin size={18} />}
      </ActionIcon>
    </Tooltip>
  );
}

/** The run switch and the refresh control (execute or edit access; never for external apps). */
export function RunControls({ insight }: { insight: InsightView }) {
  const run = useRunInsight({ onSuccess: (r) => notify.success(r.message) });
  const redeploy = useRedeployInsight({ onSuccess: (r) => notify.success(r.message) });
  if (!canRun(insight)) return null;
  return (
    <Group gap={4} wrap="nowrap">
      <Switch
        size="sm"
        aria-label={`Run ${insight.name}`}
        checked={isRunning(insight)}
        disabled={run.isPending}
        onChange={(e) => run.mutate({ id: insight.id, running: e.currentTarget.checked })}
      />
      <Tooltip label="Redeploy">
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={`Redeploy ${insight.name}`}
          loading={redeploy.isPending}
          onClick={() => redeploy.mutate(insight.id)}
        >
          <IconRefresh size={16} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

/** Asks before a delete or a removal, then calls the matching endpoint. */
function DeleteDialog({ insight, onClose }: { insight: InsightView; onClose: () => void }) {
  const del = useDeleteInsight({
    onSuccess: () => {
      notify.success(APP_DELETED);
      onClose();
    },
  });
  const owned = insight.is_owner;
  return (
    <Modal opened onClose={onClose} title="Please confirm" centered>
      <Stack>
        <Text>{owned ? DELETE_CONFIRM : REMOVE_CONFIRM}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" loading={del.isPending} onClick={() => del.mutate({ id: insight.id, owned })}>
            {owned ? 'Delete' : 'Remove'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

type Dialog = 'edit' | 'delete' | 'preview' | null;

/** Edit / Share / Delete for editors; 'Remove from insights' for an app someone shared. */
export function InsightMenu({ insight, onShare, open }: { insight: InsightView; onShare?: (i: InsightView) => void; open: (d: Dialog) => void }) {
  if (!canEdit(insight)) {
    if (insight.is_owner) return null;
    return (
      <Tooltip label="Remove from insights">
        <ActionIcon variant="subtle" color="gray" aria-label={`Remove ${insight.name} from insights`} onClick={() => open('delete')}>
          <IconX size={16} />
        </ActionIcon>
      </Tooltip>
    );
  }
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${insight.name}`}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconPencil size={14} />} onClick={() => open('edit')}>
          Edit
        </Menu.Item>
        {onShare && (
          <Menu.Item leftSection={<IconShare size={14} />} onClick={() => onShare(insight)}>
            Share
          </Menu.Item>
        )}
        <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={() => open('delete')}>
          {insight.is_owner ? 'Delete' : 'Remove from insights'}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** The dialogs a card or a table row opens. */
export function InsightDialogs({ insight, dialog, close }: { insight: InsightView; dialog: Dialog; close: () => void }) {
  if (dialog === 'edit') return <EditInsightModal insight={insight} onClose={close} />;
  if (dialog === 'delete') return <DeleteDialog insight={insight} onClose={close} />;
  if (dialog === 'preview') return <ReportPreviewModal insight={insight} onClose={close} />;
  return null;
}

export function useInsightDialogs() {
  const [dialog, setDialog] = useState<Dialog>(null);
  return { dialog, open: setDialog, close: () => setDialog(null) };
}

/** Opens the insight: a user report previews its file, anything else goes to /app/{id}. */
export function InsightOpener({ insight, onPreview, children, label }: { insight: InsightView; onPreview: () => void; children: ReactNode; label?: string }) {
  if (insight.app_type === 'user_report') {
    return (
      <UnstyledButton onClick={onPreview} aria-label={label} style={{ display: 'block', width: '100%' }}>
        {children}
      </UnstyledButton>
    );
  }
  return (
    <Anchor component={Link} to={paths.app.getHref(insight.id)} aria-label={label} underline="never" c="inherit" display="block">
      {children}
    </Anchor>
  );
}

/** What a click on a card must leave to itself: its controls, and what the card is not (a dialog's portal). */
const CARD_CONTROLS = 'a, button, input, select, textarea, label, [role="switch"], [role="menuitem"], [tabindex]';

/**
 * Opens the insight on a click anywhere on `card` that is not on one of its controls (the image
 * is the link a keyboard reaches; this is the rest of the card for a pointer).
 */
export function useCardOpener(insight: InsightView, preview: () => void) {
  const navigate = useNavigate();
  return (e: MouseEvent<HTMLElement>) => {
    const target = e.target as Element;
    // React passes clicks in a portal (the Edit dialog, the menu) up through the card: not ours.
    if (!e.currentTarget.contains(target)) return;
    const control = target.closest(CARD_CONTROLS);
    if (control && e.currentTarget.contains(control)) return;
    if (insight.app_type === 'user_report') preview();
    else void navigate(paths.app.getHref(insight.id));
  };
}

/** Whose insight it is, for a caller who sees several organizations' (a superadmin). */
export function OrganizationLabel({ insight }: { insight: InsightView }) {
  return (
    <Badge size="xs" variant="light" color="gray" leftSection={<IconBuilding size={10} />} maw={160} title={`Organization: ${insight.organization.name}`}>
      {insight.organization.name}
    </Badge>
  );
}

/**
 * The insight card (spec 000 §2): name cut to 22 and description to 25 characters, the view
 * count in a tooltip, the pin toggle, the run switch with its refresh control, and the menu; for
 * a superadmin, who sees every organization's insights, the insight's organization.
 */
export function InsightCard({ insight, onShare }: { insight: InsightView; onShare?: (i: InsightView) => void }) {
  const { user } = useSession();
  const { dialog, open, close } = useInsightDialogs();
  const views = insight.userMetrics ?? 0;
  const TypeIcon = insight.app_type === 'user_report' ? IconFileTypePdf : IconPresentationAnalytics;
  const openCard = useCardOpener(insight, () => open('preview'));

  return (
    // The image is the keyboard's way in (a link or a button); the click here serves the pointer.
    <Card
      withBorder
      padding="md"
      radius="md"
      data-testid="insight-card"
      data-name={insight.name}
      role="article"
      aria-label={insight.name}
      onClick={openCard}
      style={{ cursor: 'pointer' }}
    >
      <Card.Section pos="relative">
        {/* Pin and menu over the picture's corner, so name and description get the card's width. */}
        <Group gap={4} wrap="nowrap" pos="absolute" top={8} right={8} style={{ zIndex: 1 }}>
          <Paper radius="xl" shadow="xs" p={2}>
            <Group gap={0} wrap="nowrap">
              <PinToggle insight={insight} />
              <InsightMenu insight={insight} onShare={onShare} open={open} />
            </Group>
          </Paper>
        </Group>
        <InsightOpener insight={insight} onPreview={() => open('preview')} label={`Open ${insight.name}`}>
          {insight.img_url ? (
            <Image src={insight.img_url} alt="" h={120} fit="cover" />
          ) : (
            <Center
              h={120}
              data-testid="insight-placeholder"
              style={{ background: 'linear-gradient(135deg, var(--mantine-color-indigo-0), var(--mantine-color-cyan-0))' }}
            >
              <Stack align="center" gap={4}>
                <TypeIcon size={40} color="var(--mantine-color-indigo-4)" />
                <Text size="xs" fw={500} c="indigo.7">
                  {INSIGHT_TYPE_LABELS[insight.app_type] ?? insight.app_type}
                </Text>
              </Stack>
            </Center>
          )}
        </InsightOpener>
      </Card.Section>

      {/* One line each, the card's full width: the spec's cut (22 and 25 characters), then an ellipsis. */}
      <Box miw={0} mt="sm">
        <Text fw={600} title={insight.name} truncate="end" data-testid="insight-name">
          {truncate(insight.name, INSIGHT_NAME_MAX)}
        </Text>
        {insight.description ? (
          <Text size="sm" c="dimmed" title={insight.description} truncate="end" data-testid="insight-description">
            {truncate(insight.description, INSIGHT_DESCRIPTION_MAX)}
          </Text>
        ) : (
          <Text size="sm" c="dimmed" fs="italic" truncate="end" data-testid="insight-description">
            No description
          </Text>
        )}
      </Box>

      <Group gap={6} mt="xs">
        <Badge size="xs" variant="outline" color="gray">
          {INSIGHT_TYPE_LABELS[insight.app_type] ?? insight.app_type}
        </Badge>
        <StatusBadge status={insight.status} message={insight.status_message} />
        {isSuperadmin(user) && <OrganizationLabel insight={insight} />}
        {insight.managed && (
          <Tooltip label="Declared in the cluster (kubectl or GitOps)">
            <Badge size="xs" variant="dot" color="grape">
              managed
            </Badge>
          </Tooltip>
        )}
      </Group>

      <Group justify="space-between" mt="sm" wrap="nowrap">
        <Group gap="sm" wrap="nowrap">
          <Tooltip label={viewCountLabel(views)}>
            <Group gap={4} wrap="nowrap" aria-label={viewCountLabel(views)} tabIndex={0} data-testid="insight-views">
              <IconEye size={16} color="var(--mantine-color-dimmed)" />
              <Text size="xs" c="dimmed">
                {views}
              </Text>
            </Group>
          </Tooltip>
          <Text size="xs" c="dimmed" truncate>
            {ownerName(insight)}
          </Text>
        </Group>
        <RunControls insight={insight} />
      </Group>

      <InsightDialogs insight={insight} dialog={dialog} close={close} />
    </Card>
  );
}
