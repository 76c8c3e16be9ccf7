import type { InsightView } from '@/lib/api/types';

/** Edit and Share need edit access (spec 000 §6). */
export function canEdit(insight: Pick<InsightView, 'access_level'>) {
  return insight.access_level === 'edit';
}

/**
 * The run switch and refresh need execute or edit access and never show for external apps
 * (spec 000 §4); only applications run at all (reports render once).
 */
export function canRun(insight: Pick<InsightView, 'access_level' | 'status' | 'app_type'>) {
  return (
    (insight.access_level === 'execute' || insight.access_level === 'edit') &&
    insight.status !== 'external' &&
    insight.app_type === 'application'
  );
}

export function isRunning(insight: Pick<InsightView, 'status'>) {
  return insight.status === 'running' || insight.status === 'starting';
}

export const INSIGHT_TYPE_LABELS: Record<string, string> = {
  application: 'Application',
  report: 'Report',
  user_report: 'Imported report',
};

export function ownerName(insight: Pick<InsightView, 'user' | 'is_owner'>) {
  if (insight.is_owner) return 'You';
  const name = [insight.user?.first_name, insight.user?.last_name].filter(Boolean).join(' ');
  return name || 'Unknown';
}
