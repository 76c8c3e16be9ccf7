import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';

import { api, ApiError, unwrap } from '@/lib/api-client';
import type { NewTemplateApp, TemplateForecastRequest, TemplateGraphRequest as GraphRequest } from '@/lib/api/types';

const keys = {
  all: (id: string) => ['templates', id] as const,
  columns: (id: string) => ['templates', id, 'columns'] as const,
  page: (id: string, start: number, count: number) => ['templates', id, 'page', start, count] as const,
  graph: (id: string, req: GraphRequest) => ['templates', id, 'graph', req] as const,
  forecast: (id: string, req: TemplateForecastRequest) => ['templates', id, 'forecast', req] as const,
  dataFiles: (datasetId: string) => ['templates', 'dataset', datasetId, 'files'] as const,
  rows: (datasetId: string, file: string) => ['templates', 'dataset', datasetId, 'rows', file] as const,
};

/**
 * Template computations are asked again (once) only when every worker stayed busy (503
 * template_busy); a computation that ran out of time, or a file with too many rows, would give
 * the same answer again.
 */
export function retryWhenBusy(failures: number, error: Error) {
  return failures < 1 && error instanceof ApiError && error.code === 'template_busy';
}

/**
 * What every template computation's query shares. (Each also hands react-query's `signal` to the
 * request: when nobody shows the answer any more — the page was left — the request is aborted,
 * and the server stops the computation.)
 */
const computation = { retry: retryWhenBusy } as const;

/** GET /v1/templates/col.names/{id}: the data file's columns. */
export function useTemplateColumns(id: string) {
  return useQuery({
    queryKey: keys.columns(id),
    queryFn: ({ signal }) => unwrap(api.GET('/v1/templates/col.names/{id}', { params: { path: { id } }, signal })),
    staleTime: Infinity,
    ...computation,
  });
}

/** POST /v1/templates/data.paginate/{id}: rows from `start`, and the file's row count. */
export function useTemplatePage(id: string, start: number, count: number) {
  return useQuery({
    queryKey: keys.page(id, start, count),
    queryFn: ({ signal }) => unwrap(api.POST('/v1/templates/data.paginate/{id}', { params: { path: { id } }, body: { start, count }, signal })),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    ...computation,
  });
}

/** POST /v1/templates/graph.data/{id}: k-means clusters or a series; asked once the request is complete. */
export function useTemplateGraph(id: string, req: GraphRequest | null) {
  return useQuery({
    queryKey: keys.graph(id, req ?? { kind: 'series', x: '', y: '' }),
    queryFn: ({ signal }) => unwrap(api.POST('/v1/templates/graph.data/{id}', { params: { path: { id } }, body: req!, signal })),
    enabled: req !== null,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    ...computation,
  });
}

/** One series a `y` column by `x` (graph.data, kind series), asked together. */
export function useTemplateSeries(id: string, x: string | null, ys: string[], aggregation: string) {
  return useQueries({
    queries: ys.map((y) => {
      const req: GraphRequest = { kind: 'series', x: x ?? '', y, aggregation };
      return {
        queryKey: keys.graph(id, req),
        queryFn: ({ signal }: { signal: AbortSignal }) => unwrap(api.POST('/v1/templates/graph.data/{id}', { params: { path: { id } }, body: req, signal })),
        enabled: x !== null,
        staleTime: Infinity,
        ...computation,
      };
    }),
  });
}

/** POST /v1/templates/forecast/{id}: fitted values, moving average and forecast of `y` over `x`. */
export function useTemplateForecast(id: string, req: TemplateForecastRequest | null) {
  return useQuery({
    queryKey: keys.forecast(id, req ?? { x: '', y: '' }),
    queryFn: ({ signal }) => unwrap(api.POST('/v1/templates/forecast/{id}', { params: { path: { id } }, body: req!, signal })),
    enabled: req !== null,
    staleTime: Infinity,
    ...computation,
  });
}

/**
 * GET /v1/templates/datasets/{id}/files: the wizard's list of the data files a template app can
 * read from dataset `datasetId` (with their sizes), the default one and the row bound.
 */
export function useTemplateDataFiles(datasetId: string | null) {
  return useQuery({
    queryKey: keys.dataFiles(datasetId ?? ''),
    queryFn: ({ signal }) => unwrap(api.GET('/v1/templates/datasets/{id}/files', { params: { path: { id: datasetId! } }, signal })),
    enabled: datasetId !== null,
    // The wizard says why in place.
    meta: { silent: true },
  });
}

/** GET /v1/templates/datasets/{id}/rows: whether `file` fits the row bound of template apps. */
export function useTemplateFileRows(datasetId: string | null, file: string | null) {
  return useQuery({
    queryKey: keys.rows(datasetId ?? '', file ?? ''),
    queryFn: ({ signal }) =>
      unwrap(api.GET('/v1/templates/datasets/{id}/rows', { params: { path: { id: datasetId! }, query: { file: file! } }, signal })),
    enabled: datasetId !== null && file !== null,
    meta: { silent: true },
    ...computation,
  });
}

/** POST /v2/applications/create: the wizard's template app. */
export function useCreateTemplateApp(options: { onSuccess?: (id: string) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (application: NewTemplateApp) => unwrap(api.POST('/v2/applications/create', { body: { application } })),
    meta: { silent: true },
    onSuccess: (r) => {
      void queryClient.invalidateQueries({ queryKey: ['applications'] });
      options.onSuccess?.(r.application.id);
    },
  });
}
