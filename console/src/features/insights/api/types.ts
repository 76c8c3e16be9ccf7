/**
 * Wire types of the insights calls, written from the issue-5 contract until api/openapi.json
 * describes them (then they become names of the generated schema in lib/api/types.ts).
 */
import type { AccessLevel, InsightFilter, InsightScreen, InsightSortField, SortOperator } from '@/config/constants';
import type { Envelope } from '@/lib/api/types';

export type InsightType = 'application' | 'report' | 'user_report';
export type InsightStatus = 'running' | 'stopped' | 'starting' | 'external' | 'rendering' | 'rendered' | 'uploaded' | 'failed';

/** What every insight call returns. */
export type InsightView = {
  id: string;
  name: string;
  description: string;
  app_type: InsightType;
  status: InsightStatus;
  /** A default image url (/v1/images/defaults/…) or an object key: what is saved. */
  img_path?: string | null;
  /** What `<img src>` uses: the default image url or a presigned GET of the key. */
  img_url?: string | null;
  app_url?: string | null;
  container_name?: string | null;
  isLudis?: boolean;
  template?: string | null;
  is_template?: boolean;
  language?: string | null;
  userMetrics?: number;
  user_uid?: string | null;
  user?: { first_name?: string | null; last_name?: string | null } | null;
  pinned: boolean;
  access_level: AccessLevel;
  is_owner: boolean;
  managed?: boolean;
  created_at: number;
  updated_at: number;
};

export type InsightsQuery = {
  filter: InsightFilter;
  sortBy: InsightSortField;
  sortOperator: SortOperator;
  search: string;
  screen: InsightScreen;
};

export type InsightsPage = {
  success: boolean;
  applications: InsightView[];
  total: number;
  page: number;
  pageSize: number;
  totalPages: number;
};

export type InsightResponse = {
  success: boolean;
  application: InsightView;
  report_url?: string | null;
  open_url?: string | null;
};

/** Create, import, update, stop/restart and redeploy answer the insight with a message. */
export type InsightMessageResponse = { success: boolean; message: string; application: InsightView };

export type NewInsightFields = {
  name: string;
  description: string;
  app_type: InsightType;
  img_path?: string;
  app_url?: string;
  language?: string;
};
export type ImportAppFields = { name: string; description: string; app_type: 'application'; app_url: string };
export type InsightChanges = { name: string; description: string; img_path?: string | null; app_url?: string };

export type PinListResponse = { success: boolean; applications: InsightView[] };
export type PinRequest = { app_pin: { app_id: string; user_id?: string; pinned: boolean } };
export type PinResponse = { success: boolean; applicationPinInfo: { app_id: string; user_id: string; pinned: boolean } };
export type RunRequest = { application_id: string; publish_filenames: string[] };

export type MessageResponse = Envelope & { success: boolean; message: string };
