import { useInsightCreation } from '@/features/insights/api/cache';
import { api, unwrap } from '@/lib/api-client';
import type { components } from '@/lib/api/schema';
import type { InsightMessageResponse } from '@/lib/api/types';

/** POST /v1/applications/importreport (multipart): name, description and the PDF `file`. */
export function importReport(fields: { name: string; description: string; file: File; img_path?: string }) {
  const form = new FormData();
  form.set('name', fields.name);
  form.set('description', fields.description);
  if (fields.img_path) form.set('img_path', fields.img_path);
  form.set('file', fields.file, fields.file.name);
  // The schema's `file` is `format: binary`, which openapi-typescript writes as a string; the form
  // itself is the body (openapi-fetch sends FormData as it is, with the browser's boundary).
  const body = form as unknown as components['schemas']['ImportReportForm'];
  return unwrap(api.POST('/v1/applications/importreport', { body }));
}

export function useImportReport(options: { onSuccess?: (r: InsightMessageResponse) => void } = {}) {
  return useInsightCreation(importReport, options.onSuccess);
}
