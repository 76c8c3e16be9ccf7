import { useMutation, useQueryClient } from '@tanstack/react-query';

import { insightKeys } from '@/features/insights/api/keys';
import { api, unwrap } from '@/lib/api-client';
import type { components } from '@/lib/api/schema';
import type { ImportAppFields, InsightMessageResponse, NewInsightFields } from '@/lib/api/types';

/** POST /v1/applications: a new insight. */
export function createInsight(application: NewInsightFields) {
  return unwrap(api.POST('/v1/applications', { body: { application } })) as Promise<InsightMessageResponse>;
}

/** POST /v1/applications/importapp: an external app by its URL. */
export function importApp(application: ImportAppFields) {
  return unwrap(api.POST('/v1/applications/importapp', { body: { application } })) as Promise<InsightMessageResponse>;
}

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
  return unwrap(api.POST('/v1/applications/importreport', { body })) as Promise<InsightMessageResponse>;
}

function useInvalidatingMutation<V>(fn: (v: V) => Promise<InsightMessageResponse>, onSuccess?: (r: InsightMessageResponse) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (r) => {
      void queryClient.invalidateQueries({ queryKey: insightKeys.lists() });
      onSuccess?.(r);
    },
  });
}

export function useCreateInsight(options: { onSuccess?: (r: InsightMessageResponse) => void } = {}) {
  return useInvalidatingMutation(createInsight, options.onSuccess);
}

export function useImportApp(options: { onSuccess?: (r: InsightMessageResponse) => void } = {}) {
  return useInvalidatingMutation(importApp, options.onSuccess);
}

export function useImportReport(options: { onSuccess?: (r: InsightMessageResponse) => void } = {}) {
  return useInvalidatingMutation(importReport, options.onSuccess);
}
